import Foundation
import Testing

@testable import EraserKit

@Suite struct ICSEventReaderTests {
    private let istanbul = TimeZone(identifier: "Europe/Istanbul")!

    private func event(_ lines: [String], uid: String = "u", floating: any ICSZone = UTCZone(),
                       extra: [String] = []) throws -> CalendarEvent {
        let loaded = try CalendarFixture.loaded(CalendarFixture.calendar(extra + CalendarFixture.event(uid, lines)))
        return try #require(try loaded.event(EventID(rawValue: "t/\(uid)"), floating: floating))
    }

    @Test func anAllDayEventLastsItsDaysOnTheFloatingClock() throws {
        let single = try event(["DTSTART;VALUE=DATE:20240105", "SUMMARY:Day off"], floating: SystemZone(timeZone: istanbul))
        #expect(single.isAllDay)
        #expect(single.start == CalendarFixture.utc(2024, 1, 4, 21))
        #expect(single.end == CalendarFixture.utc(2024, 1, 5, 21))
        #expect(single.timeZone == nil)
        let trip = try event(["DTSTART;VALUE=DATE:20240712", "DTEND;VALUE=DATE:20240716"])
        #expect(trip.end.timeIntervalSince(trip.start) == 4 * 86_400)
        // A bare 8-digit value is a date even without VALUE=DATE.
        #expect(try event(["DTSTART:20240105"]).isAllDay)
    }

    @Test func dateTimesAreUTCFloatingOrZoned() throws {
        let utc = try event(["DTSTART:20240105T090000Z", "DTEND:20240105T100000Z"])
        #expect(utc.start == CalendarFixture.utc(2024, 1, 5, 9))
        #expect(utc.timeZone == nil)
        let floating = try event(["DTSTART:20240105T090000"], floating: SystemZone(timeZone: istanbul))
        #expect(floating.start == CalendarFixture.utc(2024, 1, 5, 6))
        #expect(floating.end == floating.start, "a date-time without DTEND or DURATION lasts no time")
        let zoned = try event(["DTSTART;TZID=America/New_York:20240705T090000", "DTEND;TZID=Europe/Istanbul:20240705T170000"])
        #expect(zoned.start == CalendarFixture.utc(2024, 7, 5, 13))
        #expect(zoned.end == CalendarFixture.utc(2024, 7, 5, 14))
        #expect(zoned.timeZone == "America/New_York")
    }

    @Test func durationsAreNominalDaysAndExactSeconds() throws {
        // 9 March 2024 09:00 New York + P1DT2H: the same wall time a day later (across the DST
        // change of the 10th), then two hours.
        let nominal = try event(["DTSTART;TZID=America/New_York:20240309T090000", "DURATION:P1DT2H"])
        #expect(nominal.end == CalendarFixture.utc(2024, 3, 10, 15))
        let exact = try event(["DTSTART:20240105T090000Z", "DURATION:PT90M"])
        #expect(exact.end.timeIntervalSince(exact.start) == 5400)
        #expect(ICSDuration.parse("P2W") == ICSDuration(days: 14, seconds: 0))
        #expect(ICSDuration.parse("-PT15M") == ICSDuration(days: 0, seconds: -900))
        #expect(ICSDuration.parse("P1DT1H1M1S") == ICSDuration(days: 1, seconds: 3661))
        for bad in ["", "P", "PT", "1D", "P1H", "PT1D", "P1.5D", "PXD"] { #expect(ICSDuration.parse(bad) == nil, "\(bad)") }
        let error = CalendarFixture.calendarError { _ = try event(["DTSTART:20240105T090000Z", "DURATION:soon"]) }
        #expect(error == .malformed(file: "t.ics", line: 7, reason: "DURATION \"soon\" is not a duration"))
    }

    @Test func textFieldsAndPeopleAreRead() throws {
        let read = try event([
            "DTSTART:20240214T170000Z",
            #"SUMMARY:Dinner with Sam\, maybe\; who knows"#,
            #"LOCATION:Karaköy\nİstanbul"#,
            "DESCRIPTION:   ",
            "STATUS:tentative",
            "ORGANIZER;CN=Deniz Yılmaz:MAILTO:me@example.com",
            #"ATTENDEE;CN="Taylor, Sam";EMAIL=sam@example.com:urn:uuid:1234"#,
            "ATTENDEE;CN=Sam (mobile):tel:+90-532-123-45-67",
            "ATTENDEE:sam.taylor@example.com",
            "RRULE:FREQ=WEEKLY",
        ])
        #expect(read.title == "Dinner with Sam, maybe; who knows")
        #expect(read.location == "Karaköy\nİstanbul")
        #expect(read.notes == nil, "a blank DESCRIPTION is no notes")
        #expect(read.status == "TENTATIVE")
        #expect(read.organizer == EventPerson(name: "Deniz Yılmaz", email: "me@example.com"))
        #expect(read.attendees == [
            EventPerson(name: "Taylor, Sam", email: "sam@example.com"),
            EventPerson(name: "Sam (mobile)", phone: "+90-532-123-45-67"),
            EventPerson(email: "sam.taylor@example.com"),
        ])
        #expect(read.recurrenceRule == "FREQ=WEEKLY")
        #expect(try event(["DTSTART:20240214T170000Z"]).title == "", "no SUMMARY is an empty title")
    }

    @Test func aVEventWithoutAUsableStartIsMalformedAtItsLine() {
        let missing = CalendarFixture.calendarError { _ = try event(["SUMMARY:x"]) }
        #expect(missing == .malformed(file: "t.ics", line: 4, reason: "VEVENT has no DTSTART"))
        let bad = CalendarFixture.calendarError { _ = try event(["SUMMARY:x", "DTSTART:2024-01-05"]) }
        #expect(bad == .malformed(file: "t.ics", line: 7, reason: "DTSTART \"2024-01-05\" is not a date or date-time"))
        let impossible = CalendarFixture.calendarError { _ = try event(["DTSTART:20240230T090000Z"]) }
        #expect(impossible?.code == "malformed")
    }

    @Test func anUnknownTZIDIsATypedErrorForThatEventOnly() throws {
        let bytes = CalendarFixture.calendar(
            CalendarFixture.event("bad", ["DTSTART;TZID=Mars/Olympus_Mons:20240105T090000"])
                + CalendarFixture.event("good", ["DTSTART:20240105T090000Z"]))
        let calendars = try CalendarFixture.store(["cal.ics": bytes])
        let expected = CalendarError.unknownTimeZone(file: "cal.ics", line: 6, tzid: "Mars/Olympus_Mons")
        #expect(CalendarFixture.calendarError { _ = try calendars.store.event(EventID(rawValue: "cal/bad")) } == expected)
        #expect(CalendarFixture.calendarError { _ = try calendars.store.occurrences(in: DateInterval(start: .distantPast, end: .distantFuture)) } == expected)
        #expect(try calendars.store.event(EventID(rawValue: "cal/good"))?.start == CalendarFixture.utc(2024, 1, 5, 9))
        #expect(try calendars.store.eventCount() == 2)
        #expect(EraserKitError.calendar(expected).code == "calendar.unknown_time_zone")
    }
}
