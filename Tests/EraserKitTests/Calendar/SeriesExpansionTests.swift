import Foundation
import Testing

@testable import EraserKit

@Suite struct SeriesExpansionTests {
    private let year2024 = DateInterval(start: CalendarFixture.utc(2024, 1, 1), end: CalendarFixture.utc(2025, 1, 1))

    private func occurrences(_ lines: [String], in range: DateInterval? = nil, floating: String = "UTC",
                             limits: RecurrenceLimits = RecurrenceLimits()) throws -> [EventOccurrence] {
        let calendars = try CalendarFixture.store(["c.ics": CalendarFixture.calendar(lines)],
                                                  floating: TimeZone(identifier: floating)!, limits: limits)
        return try calendars.store.occurrences(in: range ?? year2024)
    }

    @Test func aWeeklyEventKeepsItsWallClockAcrossBothDSTChanges() throws {
        let found = try occurrences(CalendarFixture.event("w", [
            "DTSTART;TZID=America/New_York:20240304T090000", "DTEND;TZID=America/New_York:20240304T093000",
            "RRULE:FREQ=WEEKLY;UNTIL=20241112T000000Z",
        ]))
        #expect(found.first?.start == CalendarFixture.utc(2024, 3, 4, 14))
        #expect(found[1].start == CalendarFixture.utc(2024, 3, 11, 13), "EDT from 10 March")
        #expect(found.last?.start == CalendarFixture.utc(2024, 11, 11, 14), "EST again from 3 November")
        #expect(found.allSatisfy { CalendarFixture.wall($0.start, "America/New_York").hasSuffix("T090000") })
        #expect(found.allSatisfy { $0.end.timeIntervalSince($0.start) == 1800 })
        #expect(found.allSatisfy { $0.eventID.rawValue == "c/w" && $0.instanceID == nil })
    }

    @Test func istanbulHasNoDSTSince2016() throws {
        let found = try occurrences(CalendarFixture.event("i", [
            "DTSTART;TZID=Europe/Istanbul:20150301T090000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1",
        ]), in: DateInterval(start: CalendarFixture.utc(2015, 1, 1), end: CalendarFixture.utc(2017, 12, 31)))
        let hours = found.map { Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: $0.start).hour! }
        #expect(hours.prefix(7) == [7, 6, 6, 6, 6, 6, 6], "EET in March 2015, EEST from 29 March 2015")
        #expect(hours.suffix(15).allSatisfy { $0 == 6 }, "+03 all year from September 2016")
    }

    @Test func timesInTheSpringGapAndTheAutumnOverlap() throws {
        let gap = try occurrences(CalendarFixture.event("g", [
            "DTSTART;TZID=America/New_York:20240309T023000", "RRULE:FREQ=DAILY;COUNT=3"]))
        #expect(gap.map(\.start) == [CalendarFixture.utc(2024, 3, 9, 7, 30), CalendarFixture.utc(2024, 3, 10, 7, 30),
                                     CalendarFixture.utc(2024, 3, 11, 6, 30)], "02:30 on the 10th does not exist: 03:30 EDT")
        let overlap = try occurrences(CalendarFixture.event("o", [
            "DTSTART;TZID=America/New_York:20241102T013000", "RRULE:FREQ=DAILY;COUNT=3"]))
        #expect(overlap.map(\.start) == [CalendarFixture.utc(2024, 11, 2, 5, 30), CalendarFixture.utc(2024, 11, 3, 5, 30),
                                         CalendarFixture.utc(2024, 11, 4, 6, 30)], "01:30 on the 3rd is the first one (EDT)")
    }

    @Test func exceptionDatesInAnyFormRemoveOccurrences() throws {
        let found = try occurrences(CalendarFixture.event("x", [
            "DTSTART;TZID=Europe/Istanbul:20240101T090000", "RRULE:FREQ=DAILY;COUNT=6",
            "EXDATE;TZID=Europe/Istanbul:20240102T090000",
            "EXDATE:20240103T060000Z,20240104T090000",  // UTC, and floating (read in the series' zone)
            "EXDATE;VALUE=DATE:20240105",  // a date removes that day's occurrence
        ]))
        #expect(found.map(\.start) == [CalendarFixture.utc(2024, 1, 1, 6), CalendarFixture.utc(2024, 1, 6, 6)])
    }

    @Test func recurrenceDatesAddOccurrencesWithTheEventsLengthOrTheirOwn() throws {
        let found = try occurrences(CalendarFixture.event("r", [
            "DTSTART:20240105T090000Z", "DTEND:20240105T100000Z", "RRULE:FREQ=WEEKLY;COUNT=2",
            "RDATE:20240107T150000Z,20240112T090000Z",  // the second repeats a rule occurrence: once only
            "RDATE;VALUE=PERIOD:20240120T080000Z/20240120T083000Z,20240121T080000Z/PT2H",
            "RDATE;VALUE=DATE:20240125",
        ]))
        #expect(found.map { [$0.start, $0.end] } == [
            [CalendarFixture.utc(2024, 1, 5, 9), CalendarFixture.utc(2024, 1, 5, 10)],
            [CalendarFixture.utc(2024, 1, 7, 15), CalendarFixture.utc(2024, 1, 7, 16)],
            [CalendarFixture.utc(2024, 1, 12, 9), CalendarFixture.utc(2024, 1, 12, 10)],
            [CalendarFixture.utc(2024, 1, 20, 8), CalendarFixture.utc(2024, 1, 20, 8, 30)],
            [CalendarFixture.utc(2024, 1, 21, 8), CalendarFixture.utc(2024, 1, 21, 10)],
            [CalendarFixture.utc(2024, 1, 25), CalendarFixture.utc(2024, 1, 25, 1)],
        ])
    }

    @Test func anOverrideReplacesItsOccurrenceAndACancelledOneRemovesIt() throws {
        let lines = CalendarFixture.event("s", [
            "DTSTART;TZID=America/New_York:20240304T090000", "DTEND;TZID=America/New_York:20240304T100000",
            "RRULE:FREQ=WEEKLY;COUNT=5", "SUMMARY:Stand-up",
        ]) + CalendarFixture.event("s", [
            "RECURRENCE-ID;TZID=America/New_York:20240311T090000", "SUMMARY:Moved",
            "DTSTART;TZID=America/New_York:20240312T140000", "DTEND;TZID=America/New_York:20240312T143000",
        ]) + CalendarFixture.event("s", [
            "RECURRENCE-ID:20240318T130000Z", "STATUS:CANCELLED", "DTSTART;TZID=America/New_York:20240318T090000",
        ])
        let calendars = try CalendarFixture.store(["c.ics": CalendarFixture.calendar(lines)])
        let found = try calendars.store.occurrences(in: year2024)
        #expect(found.map(\.start) == [CalendarFixture.utc(2024, 3, 4, 14), CalendarFixture.utc(2024, 3, 12, 18),
                                       CalendarFixture.utc(2024, 3, 25, 13), CalendarFixture.utc(2024, 4, 1, 13)])
        let moved = found[1]
        #expect(moved.eventID.rawValue == "c/s")
        #expect(moved.instanceID?.rawValue == "c/s#20240311T090000")
        #expect(moved.end.timeIntervalSince(moved.start) == 1800)
        #expect(try calendars.store.event(try #require(moved.instanceID))?.title == "Moved")
        #expect(try calendars.store.event(EventID(rawValue: "c/s"))?.title == "Stand-up")
        #expect(try calendars.store.eventCount() == 1, "a series counts once")
        // An override moved into a window its original occurrence is outside of.
        let narrow = try calendars.store.occurrences(in: DateInterval(start: CalendarFixture.utc(2024, 3, 12), end: CalendarFixture.utc(2024, 3, 13)))
        #expect(narrow.map(\.instanceID) == [moved.instanceID])
    }

    @Test func overridesWithoutTheirMasterAreAnEventOfTheirOwn() throws {
        let calendars = try CalendarFixture.store(["c.ics": CalendarFixture.calendar(CalendarFixture.event("inv", [
            "RECURRENCE-ID:20240610T090000Z", "DTSTART:20240610T100000Z", "DTEND:20240610T110000Z", "SUMMARY:One of many",
        ]))])
        let found = try calendars.store.occurrences(in: year2024)
        #expect(found == [EventOccurrence(eventID: EventID(rawValue: "c/inv"), start: CalendarFixture.utc(2024, 6, 10, 10),
                                          end: CalendarFixture.utc(2024, 6, 10, 11), instanceID: EventID(rawValue: "c/inv#20240610T090000Z"))])
        #expect(try calendars.store.event(EventID(rawValue: "c/inv"))?.title == "One of many")
        #expect(try calendars.store.eventCount() == 1)
    }

    @Test func aCancelledSeriesHasNoOccurrencesButIsStillAnEvent() throws {
        let calendars = try CalendarFixture.store(["c.ics": CalendarFixture.calendar(CalendarFixture.event("gone", [
            "DTSTART:20240610T100000Z", "RRULE:FREQ=DAILY", "STATUS:CANCELLED",
        ]))])
        #expect(try calendars.store.occurrences(in: year2024).isEmpty)
        #expect(try calendars.store.event(EventID(rawValue: "c/gone"))?.status == "CANCELLED")
        #expect(try calendars.store.eventCount() == 1)
    }

    @Test func countIncludesAnUnmatchedDTSTART() throws {
        // DTSTART is a Tuesday, the rule Mondays: RFC 5545 counts DTSTART as the first of the 3.
        let found = try occurrences(CalendarFixture.event("c", ["DTSTART:20240102T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3"]))
        #expect(found.map(\.start) == [CalendarFixture.utc(2024, 1, 2, 9), CalendarFixture.utc(2024, 1, 8, 9), CalendarFixture.utc(2024, 1, 15, 9)])
    }

    @Test func aDateUntilOnATimedSeriesIncludesThatDay() throws {
        let found = try occurrences(CalendarFixture.event("u", [
            "DTSTART;TZID=Europe/Istanbul:20240101T220000", "RRULE:FREQ=DAILY;UNTIL=20240103"]))
        #expect(found.count == 3)
    }

    @Test func allDayAndFloatingSeriesFollowTheFloatingZone() throws {
        let lines = CalendarFixture.event("d", ["DTSTART;VALUE=DATE:20240310", "RRULE:FREQ=DAILY;COUNT=2"])
            + CalendarFixture.event("f", ["DTSTART:20240310T090000", "RRULE:FREQ=DAILY;COUNT=2"])
        let found = try occurrences(lines, floating: "America/New_York")
        #expect(found.map(\.start) == [CalendarFixture.utc(2024, 3, 10, 5), CalendarFixture.utc(2024, 3, 10, 13),
                                       CalendarFixture.utc(2024, 3, 11, 4), CalendarFixture.utc(2024, 3, 11, 13)])
        #expect(found[0].end == CalendarFixture.utc(2024, 3, 11, 4), "the 23-hour day of the spring change")
    }

    @Test func aWindowTakesWhatOverlapsIt() throws {
        let lines = CalendarFixture.event("long", ["DTSTART:20240601T220000Z", "DTEND:20240602T020000Z"])
            + CalendarFixture.event("point-in", ["DTSTART:20240601T000000Z"])
            + CalendarFixture.event("point-end", ["DTSTART:20240602T000000Z"])
            + CalendarFixture.event("before", ["DTSTART:20240531T220000Z", "DTEND:20240601T000000Z"])
        let found = try occurrences(lines, in: DateInterval(start: CalendarFixture.utc(2024, 6, 1), end: CalendarFixture.utc(2024, 6, 2)))
        #expect(found.map(\.eventID.rawValue) == ["c/point-in", "c/long"])
    }

    @Test func aLongRunningRuleIsExpandedFromTheWindowNotFromItsStart() throws {
        let found = try occurrences(CalendarFixture.event("old", ["DTSTART:19900101T090000Z", "RRULE:FREQ=DAILY;INTERVAL=3"]),
                                    in: DateInterval(start: CalendarFixture.utc(2024, 6, 1), end: CalendarFixture.utc(2024, 6, 10)),
                                    limits: RecurrenceLimits(maxOccurrences: 100, maxPeriods: 100))
        let start = CalendarFixture.utc(1990, 1, 1, 9)
        #expect(found.count == 3)
        #expect(found.allSatisfy { Int($0.start.timeIntervalSince(start)) % (3 * 86_400) == 0 })
    }

    @Test func runawayRulesStopWithATypedError() throws {
        let everyDay = CalendarFixture.event("daily", ["DTSTART:20240101T090000Z", "RRULE:FREQ=DAILY"])
        let tooMany = CalendarFixture.calendarError {
            _ = try occurrences(everyDay, in: DateInterval(start: .distantPast, end: .distantFuture),
                                limits: RecurrenceLimits(maxOccurrences: 1000))
        }
        #expect(tooMany == .tooManyOccurrences(file: "c.ics", line: 7, limit: 1000))
        #expect(EraserKitError.calendar(tooMany!).code == "calendar.too_many_occurrences")
        // A rule that never matches walks periods until the window ends, or the limit.
        let never = CalendarFixture.event("never", ["DTSTART:20240101T090000Z", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"])
        #expect(try occurrences(never).count == 1, "only DTSTART")
        let walked = CalendarFixture.calendarError {
            _ = try occurrences(never, in: DateInterval(start: CalendarFixture.utc(2024, 1, 1), end: CalendarFixture.utc(2034, 1, 1)),
                                limits: RecurrenceLimits(maxPeriods: 1000))
        }
        #expect(walked == .tooManyOccurrences(file: "c.ics", line: 7, limit: 1000))
        // The default limits take a century of a daily rule.
        let century = try occurrences(everyDay, in: DateInterval(start: CalendarFixture.utc(2024, 1, 1), end: CalendarFixture.utc(2124, 1, 1)))
        #expect(century.count == 36_524, "100 years with 24 leap days (2100 is not one)")
    }

    @Test func anUnsupportedRuleFailsOnlyItsExpansion() throws {
        let calendars = try CalendarFixture.store(["c.ics": CalendarFixture.calendar(CalendarFixture.event("h", [
            "DTSTART:20240101T090000Z", "RRULE:FREQ=HOURLY;INTERVAL=4", "SUMMARY:Pills",
        ]))])
        #expect(CalendarFixture.calendarError { _ = try calendars.store.occurrences(in: year2024) }
            == .unsupportedRule(file: "c.ics", line: 7, reason: "FREQ=HOURLY"))
        #expect(try calendars.store.event(EventID(rawValue: "c/h"))?.title == "Pills")
        let removed = try calendars.store.remove(EventID(rawValue: "c/h"))
        #expect(removed.event.recurrenceRule == "FREQ=HOURLY;INTERVAL=4")
        #expect(try calendars.store.occurrences(in: year2024).isEmpty)
    }
}
