import Foundation
import Testing

@testable import EraserKit

@Suite struct TimeZoneResolverTests {
    private func resolver(_ lines: [String] = []) throws -> TimeZoneResolver {
        TimeZoneResolver(document: try ICSParser.parse(CalendarFixture.calendar(lines), fileName: "t.ics"))
    }

    /// Offsets every 6 hours through `years` agree with the system's `zone`.
    private func expectSameOffsets(_ zone: any ICSZone, as identifier: String, years: ClosedRange<Int>) {
        let system = SystemZone(timeZone: TimeZone(identifier: identifier)!)
        let start = Int64(CivilDate(year: years.lowerBound, month: 1, day: 1)!.dayNumber) * 86_400
        let end = Int64(CivilDate(year: years.upperBound, month: 12, day: 31)!.dayNumber) * 86_400
        var mismatches: [String] = []
        for instant in stride(from: start, through: end, by: 6 * 3600) where zone.utcOffset(at: instant) != system.utcOffset(at: instant) {
            mismatches.append("\(LocalDateTime(wallSeconds: instant))Z: \(zone.utcOffset(at: instant)) ≠ \(system.utcOffset(at: instant))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func olsonNamesPathPrefixesAndWindowsNamesUseTheSystemDatabase() throws {
        let resolver = try resolver()
        #expect(try resolver.zone("Europe/Istanbul", line: 1).identifier == "Europe/Istanbul")
        #expect(try resolver.zone("/mozilla.org/20070129_1/Europe/Istanbul", line: 1).identifier == "Europe/Istanbul")
        #expect(try resolver.zone("/freeassociation.sourceforge.net/Tzfile/America/New_York", line: 1).identifier == "America/New_York")
        #expect(try resolver.zone("Turkey Standard Time", line: 1).identifier == "Europe/Istanbul")
        #expect(try resolver.zone("W. Europe Standard Time", line: 1).identifier == "Europe/Berlin")
        #expect(CalendarFixture.calendarError { _ = try resolver.zone("Nowhere Standard Time", line: 9) }
            == .unknownTimeZone(file: "t.ics", line: 9, tzid: "Nowhere Standard Time"))
    }

    @Test func everyWindowsNameMapsToAZoneTheSystemKnows() {
        let unknown = WindowsTimeZones.table.filter { TimeZone(identifier: $0.value) == nil }
        #expect(unknown.isEmpty, "\(unknown)")
    }

    @Test func aVTimeZoneWithYearlyRulesDefinesAnUnknownTZID() throws {
        // As Outlook writes one: rules from 1601 on, under a name no database has.
        let resolver = try resolver([
            "BEGIN:VTIMEZONE", "TZID:Pacific Time (US & Canada) custom",
            "BEGIN:STANDARD", "DTSTART:16011104T020000", "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11",
            "TZOFFSETFROM:-0700", "TZOFFSETTO:-0800", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:16010311T020000", "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3",
            "TZOFFSETFROM:-0800", "TZOFFSETTO:-0700", "END:DAYLIGHT", "END:VTIMEZONE",
        ])
        let zone = try resolver.zone("Pacific Time (US & Canada) custom", line: 1)
        expectSameOffsets(zone, as: "America/Los_Angeles", years: 2008...2030)
        // The gap and the overlap read as RFC 5545 says: 02:30 on 10 March 2024 is 03:30 PDT.
        let gap = LocalDateTime(date: CivilDate(year: 2024, month: 3, day: 10)!, hour: 2, minute: 30, second: 0)
        #expect(zone.instant(for: gap) == gap.wallSeconds + 8 * 3600)
        let overlap = LocalDateTime(date: CivilDate(year: 2024, month: 11, day: 3)!, hour: 1, minute: 30, second: 0)
        #expect(zone.instant(for: overlap) == overlap.wallSeconds + 7 * 3600, "the first (daylight) 01:30")
    }

    @Test func aVTimeZoneWithUntilAndRDatesFollowsRuleChanges() throws {
        // New York's rules before and after 2007, the old ones ending with UNTIL, plus an RDATE.
        let resolver = try resolver([
            "BEGIN:VTIMEZONE", "TZID:NY with history",
            "BEGIN:DAYLIGHT", "DTSTART:19870405T020000", "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU;UNTIL=20060402T070000Z",
            "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:19671029T020000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20061029T060000Z",
            "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:20070311T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
            "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:20071104T020000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
            "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "END:STANDARD",
            "END:VTIMEZONE",
        ])
        expectSameOffsets(try resolver.zone("NY with history", line: 1), as: "America/New_York", years: 1990...2030)
    }

    @Test func aVTimeZoneOfRDatesAsPythonWritesThemIsRead() throws {
        // icalendar's VTIMEZONE for Europe/Istanbul (RDATE lists up to 2016), under another name.
        let resolver = try resolver([
            "BEGIN:VTIMEZONE", "TZID:Istanbul (copy)",
            "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0200", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:20140331T040000", "RDATE:20150329T040000,20160327T040000",
            "TZOFFSETFROM:+0200", "TZOFFSETTO:+0300", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:20141026T040000", "RDATE:20151108T040000",
            "TZOFFSETFROM:+0300", "TZOFFSETTO:+0200", "END:STANDARD",
            "BEGIN:STANDARD", "DTSTART:20160907T000000", "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD",
            "END:VTIMEZONE",
        ])
        expectSameOffsets(try resolver.zone("Istanbul (copy)", line: 1), as: "Europe/Istanbul", years: 2015...2030)
    }

    @Test func aBrokenVTimeZoneIsMalformed() throws {
        let resolver = try resolver([
            "BEGIN:VTIMEZONE", "TZID:Broken", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+2",
            "TZOFFSETTO:+0200", "END:STANDARD", "END:VTIMEZONE",
        ])
        #expect(CalendarFixture.calendarError { _ = try resolver.zone("Broken", line: 30) }
            == .malformed(file: "t.ics", line: 8, reason: "TZOFFSETFROM \"+2\" is not a UTC offset"))
    }
}
