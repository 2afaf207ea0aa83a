"""The independent reader for EraserKit's calendar tests: Python's `icalendar` reads a file,
`recurring_ical_events` expands it.

    python3 calendar_peer.py events FILE
        every VEVENT as icalendar reads it: uid, recurrence_id, summary, location, description,
        status, organizer and attendees ({"cn", "value"}), start and end (see below).
    python3 calendar_peer.py expand FILE START END
        every occurrence from START to END (Unix seconds), as recurring_ical_events gives them:
        uid, start, end.

Times are Unix seconds. A floating time is read as UTC and a date as its midnight UTC, so the
Swift side compares with its floating zone set to UTC. Output is JSON on standard output.
"""
import datetime
import json
import sys

import icalendar


def seconds(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return int(value.timestamp())
    return int(datetime.datetime(value.year, value.month, value.day, tzinfo=datetime.timezone.utc).timestamp())


def text(component, name):
    value = component.get(name)
    return None if value is None else str(value)


def person(value):
    return {"cn": value.params.get("CN"), "value": str(value)}


def people(component, name):
    value = component.get(name)
    if value is None:
        return []
    return [person(item) for item in (value if isinstance(value, list) else [value])]


def end_of(component):
    start = component["DTSTART"].dt
    if "DTEND" in component:
        return component["DTEND"].dt
    if "DURATION" in component:
        return start + component["DURATION"].dt
    if isinstance(start, datetime.datetime):
        return start
    return start + datetime.timedelta(days=1)


def recurrence_id(component):
    value = component.get("RECURRENCE-ID")
    return None if value is None else value.to_ical().decode()


def events(path):
    calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
    result = []
    for event in calendar.walk("VEVENT"):
        organizers = people(event, "ORGANIZER")
        result.append({
            "uid": text(event, "UID"),
            "recurrence_id": recurrence_id(event),
            "summary": text(event, "SUMMARY"),
            "location": text(event, "LOCATION"),
            "description": text(event, "DESCRIPTION"),
            "status": text(event, "STATUS"),
            "organizer": organizers[0] if organizers else None,
            "attendees": people(event, "ATTENDEE"),
            "start": seconds(event["DTSTART"].dt),
            "end": seconds(end_of(event)),
        })
    return result


def expand(path, start, end):
    import recurring_ical_events

    calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
    begin = datetime.datetime.fromtimestamp(start, datetime.timezone.utc)
    finish = datetime.datetime.fromtimestamp(end, datetime.timezone.utc)
    result = []
    for event in recurring_ical_events.of(calendar).between(begin, finish):
        result.append({
            "uid": text(event, "UID"),
            "start": seconds(event["DTSTART"].dt),
            "end": seconds(end_of(event)),
        })
    result.sort(key=lambda item: (item["start"], item["uid"]))
    return result


def main():
    command = sys.argv[1]
    if command == "events":
        print(json.dumps(events(sys.argv[2])))
    elif command == "expand":
        print(json.dumps(expand(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
