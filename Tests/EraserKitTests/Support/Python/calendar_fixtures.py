"""Calendars written by Python's `icalendar`, for EraserKit's calendar tests.

    python3 calendar_fixtures.py DIR

writes into DIR:
- people.ics: events with organizers and attendees (CN, mailto:, tel:), Europe/Istanbul and
  America/New_York times, a weekly series across both 2024 DST changes with an EXDATE and a
  moved, retitled override, a monthly series with an EXDATE and an RDATE, all-day events, and
  text that needs escaping and folding (Turkish letters, commas, semicolons, line breaks).
- rules.ics: one event per recurrence rule of RULES, for comparing expansions.
Each file is what `Calendar.to_ical()` gives, so lines are CRLF and folded at 75 octets.
"""
import datetime
import sys
import zoneinfo
from pathlib import Path

import icalendar

IST = zoneinfo.ZoneInfo("Europe/Istanbul")
NYC = zoneinfo.ZoneInfo("America/New_York")
UTC = datetime.timezone.utc

# (uid, zone or None for floating / "date" for all-day, dtstart, duration, rrule, extra).
# Every DTSTART is an occurrence of its rule: RFC 5545 leaves other starts undefined.
# daily-in-gap and daily-in-overlap start in New York's spring gap and autumn overlap; their
# ends differ on purpose (see RecurringICalEventsPeerTests).
RULES = [
    ("daily-count", IST, (2024, 1, 1, 9, 0), 60, "FREQ=DAILY;COUNT=10", {}),
    ("daily-interval-until", NYC, (2024, 2, 20, 8, 30), 45, "FREQ=DAILY;INTERVAL=3;UNTIL=20240420T120000Z", {}),
    ("weekly-mwf", NYC, (2024, 10, 7, 18, 0), 90, "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=30", {}),
    ("weekly-2-tuth-wkst-su", NYC, (2024, 1, 2, 7, 0), 30, "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=SU;UNTIL=20241231T235959Z", {}),
    ("weekly-2-mosu-wkst-mo", IST, (2024, 8, 6, 9, 0), 60, "FREQ=WEEKLY;INTERVAL=2;COUNT=6;WKST=MO;BYDAY=TU,SU", {}),
    ("weekly-2-mosu-wkst-su", IST, (2024, 8, 6, 9, 0), 60, "FREQ=WEEKLY;INTERVAL=2;COUNT=6;WKST=SU;BYDAY=TU,SU", {}),
    ("monthly-2mo", IST, (2024, 1, 8, 19, 0), 120, "FREQ=MONTHLY;BYDAY=2MO;COUNT=12", {}),
    ("monthly-last-fr", NYC, (2024, 1, 26, 17, 0), 60, "FREQ=MONTHLY;BYDAY=-1FR", {}),
    ("monthly-last-day", IST, (2024, 1, 31, 12, 0), 30, "FREQ=MONTHLY;BYMONTHDAY=-1", {}),
    ("monthly-31st", NYC, (2024, 1, 31, 12, 0), 30, "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=8", {}),
    ("monthly-1-15-every-2", IST, (2024, 1, 1, 10, 0), 60, "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1,15", {}),
    ("monthly-last-weekday", NYC, (2024, 1, 31, 16, 0), 60, "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", {}),
    ("monthly-third-tu-we-th", NYC, (2024, 9, 5, 9, 0), 60, "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", {}),
    ("yearly-last-sun-march", IST, (2024, 3, 31, 11, 0), 60, "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", {}),
    ("yearly-feb-29", NYC, (2024, 2, 29, 20, 0), 60, "FREQ=YEARLY;COUNT=3", {}),
    ("yearly-20th-monday", IST, (2024, 5, 13, 9, 0), 60, "FREQ=YEARLY;BYDAY=20MO", {}),
    ("yearly-year-days", NYC, (2024, 1, 1, 9, 0), 60, "FREQ=YEARLY;BYYEARDAY=1,100,-1", {}),
    ("yearly-first-monday-jan-jul", IST, (2024, 1, 1, 9, 0), 60, "FREQ=YEARLY;BYMONTH=1,7;BYDAY=1MO", {}),
    ("yearly-us-election", NYC, (2024, 11, 5, 7, 0), 60, "FREQ=YEARLY;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", {}),
    ("yearly-every-2-jan-sundays", NYC, (2024, 1, 7, 8, 30), 30,
     "FREQ=YEARLY;INTERVAL=2;BYMONTH=1;BYDAY=SU;BYHOUR=8,9;BYMINUTE=30", {}),
    ("daily-january-weekends", IST, (2024, 1, 6, 10, 0), 60, "FREQ=DAILY;BYMONTH=1;BYDAY=SA,SU", {}),
    ("monthly-friday-13", NYC, (2024, 9, 13, 21, 0), 120, "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", {}),
    ("daily-two-hours", IST, (2024, 6, 1, 9, 0), 30, "FREQ=DAILY;BYHOUR=9,17;COUNT=10", {}),
    ("daily-in-gap", NYC, (2024, 3, 7, 2, 30), 30, "FREQ=DAILY;COUNT=6", {}),
    ("daily-in-overlap", NYC, (2024, 10, 31, 1, 30), 30, "FREQ=DAILY;COUNT=6", {}),
    ("weekly-utc", UTC, (2024, 3, 5, 22, 0), 60, "FREQ=WEEKLY;BYDAY=TU;COUNT=10", {}),
    ("daily-floating", None, (2024, 3, 8, 9, 0), 60, "FREQ=DAILY;COUNT=5", {}),
    ("weekly-all-day", "date", (2024, 3, 4), 1, "FREQ=WEEKLY;BYDAY=MO;COUNT=8",
     {"exdate": [datetime.date(2024, 3, 18)]}),
    ("monthly-all-day-three-days", "date", (2024, 1, 10), 3, "FREQ=MONTHLY;COUNT=6", {}),
    ("weekly-exdate-rdate", IST, (2024, 3, 1, 9, 0), 60, "FREQ=WEEKLY;COUNT=8",
     {"exdate": [datetime.datetime(2024, 3, 15, 9, 0, tzinfo=IST)],
      "rdate": [datetime.datetime(2024, 3, 20, 14, 0, tzinfo=IST)]}),
]


def moment(zone, parts):
    if zone == "date":
        return datetime.date(*parts)
    return datetime.datetime(*parts, tzinfo=zone)


def rules_calendar():
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//EraserKit tests//calendar_fixtures//EN")
    calendar.add("version", "2.0")
    for uid, zone, start, length, rule, extra in RULES:
        event = icalendar.Event()
        event.add("uid", uid)
        event.add("summary", uid)
        begin = moment(zone, start)
        event.add("dtstart", begin)
        delta = datetime.timedelta(days=length) if zone == "date" else datetime.timedelta(minutes=length)
        event.add("dtend", begin + delta)
        event.add("rrule", icalendar.vRecur.from_ical(rule))
        for name in ("exdate", "rdate"):
            for value in extra.get(name, []):
                event.add(name, value)
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar


def person(address, name=None):
    value = icalendar.vCalAddress(address)
    if name:
        value.params["cn"] = icalendar.vText(name)
    return value


def people_calendar():
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//EraserKit tests//calendar_fixtures//EN")
    calendar.add("version", "2.0")

    dinner = icalendar.Event()
    dinner.add("uid", "dinner-1@example.com")
    dinner.add("summary", "Dinner with Sam")
    dinner.add("location", "Karaköy Lokantası, Kemankeş Mah.; İstanbul")
    dinner.add("description", "Table for two\nBring the gift; don't be late, really.\n" + "Çok güzel olacak! " * 6)
    dinner.add("dtstart", datetime.datetime(2024, 2, 14, 20, 0, tzinfo=IST))
    dinner.add("dtend", datetime.datetime(2024, 2, 14, 22, 30, tzinfo=IST))
    dinner.add("organizer", person("mailto:me@example.com", "Deniz Yılmaz"))
    dinner.add("attendee", person("mailto:Sam.Taylor@Example.com", "Sam Taylor"))
    dinner.add("attendee", person("tel:+90-532-123-45-67", "Sam (mobile)"))
    calendar.add_component(dinner)

    standup = icalendar.Event()
    standup.add("uid", "standup@example.com")
    standup.add("summary", "Stand-up")
    standup.add("dtstart", datetime.datetime(2024, 2, 26, 9, 30, tzinfo=NYC))
    standup.add("dtend", datetime.datetime(2024, 2, 26, 9, 45, tzinfo=NYC))
    standup.add("rrule", {"freq": "weekly", "byday": ["MO", "TH"], "until": datetime.datetime(2024, 11, 30, tzinfo=UTC)})
    standup.add("exdate", datetime.datetime(2024, 3, 14, 9, 30, tzinfo=NYC))
    standup.add("organizer", person("mailto:boss@example.com", "Alex Boss"))
    standup.add("attendee", person("mailto:me@example.com", "Deniz Yılmaz"))
    calendar.add_component(standup)

    moved = icalendar.Event()
    moved.add("uid", "standup@example.com")
    moved.add("recurrence-id", datetime.datetime(2024, 3, 11, 9, 30, tzinfo=NYC))
    moved.add("summary", "Stand-up (moved, with Sam)")
    moved.add("dtstart", datetime.datetime(2024, 3, 12, 11, 0, tzinfo=NYC))
    moved.add("dtend", datetime.datetime(2024, 3, 12, 11, 15, tzinfo=NYC))
    moved.add("attendee", person("mailto:sam.taylor@example.com", "Sam Taylor"))
    calendar.add_component(moved)

    therapy = icalendar.Event()
    therapy.add("uid", "therapy@example.com")
    therapy.add("summary", "Therapy")
    therapy.add("dtstart", datetime.datetime(2024, 1, 15, 18, 0, tzinfo=IST))
    therapy.add("dtend", datetime.datetime(2024, 1, 15, 18, 50, tzinfo=IST))
    therapy.add("rrule", {"freq": "monthly", "byday": ["3MO"], "count": 10})
    therapy.add("exdate", datetime.datetime(2024, 4, 15, 18, 0, tzinfo=IST))
    therapy.add("rdate", datetime.datetime(2024, 4, 22, 18, 0, tzinfo=IST))
    calendar.add_component(therapy)

    birthday = icalendar.Event()
    birthday.add("uid", "birthday@example.com")
    birthday.add("summary", "Samantha's birthday")
    birthday.add("dtstart", datetime.date(2024, 5, 3))
    birthday.add("dtend", datetime.date(2024, 5, 4))
    birthday.add("rrule", {"freq": "yearly"})
    calendar.add_component(birthday)

    trip = icalendar.Event()
    trip.add("uid", "trip@example.com")
    trip.add("summary", "Trip to Bodrum — Sam & me")
    trip.add("dtstart", datetime.date(2024, 7, 12))
    trip.add("dtend", datetime.date(2024, 7, 16))
    trip.add("attendee", person("mailto:SAM.TAYLOR@example.com"))
    calendar.add_component(trip)

    call = icalendar.Event()
    call.add("uid", "call@example.com")
    call.add("summary", "Call")
    call.add("description", "Call back on 0532 123 45 67 before noon")
    call.add("dtstart", datetime.datetime(2024, 3, 9, 10, 0, tzinfo=UTC))
    call.add("duration", datetime.timedelta(minutes=20))
    calendar.add_component(call)

    calendar.add_missing_timezones()
    return calendar


def main():
    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "people.ics").write_bytes(people_calendar().to_ical())
    (folder / "rules.ics").write_bytes(rules_calendar().to_ical())


if __name__ == "__main__":
    main()
