import Foundation
import Testing

@testable import EraserKit

/// Damaged calendars: every one is read, expanded and has its events removed without a crash,
/// each failure being a `CalendarError`.
@Suite struct ICSFuzzTests {
    /// SplitMix64, so every run damages the same way.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seed = CalendarFixture.calendar(
        ["BEGIN:VTIMEZONE", "TZID:Custom", "BEGIN:STANDARD", "DTSTART:19700101T000000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
         "TZOFFSETFROM:+0300", "TZOFFSETTO:+0200", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:19700329T030000",
         "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0300", "END:DAYLIGHT", "END:VTIMEZONE"]
            + CalendarFixture.event("a", ["DTSTART;TZID=Custom:20240101T090000", "DURATION:P1DT2H",
                                          "RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=2MO,-1FR;BYSETPOS=1,-1;COUNT=20",
                                          "EXDATE;TZID=Europe/Istanbul:20240308T090000", "RDATE;VALUE=PERIOD:20240105T090000Z/PT1H",
                                          #"ATTENDEE;CN="Sam; Taylor":mailto:sam@example.com"#, "SUMMARY:Ça\\, ğ"])
            + CalendarFixture.event("a", ["RECURRENCE-ID;TZID=Custom:20240108T090000", "DTSTART:20240109T100000Z"])
            + CalendarFixture.event("b", ["DTSTART;VALUE=DATE:20240301", "DTEND;VALUE=DATE:20240303",
                                          "RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=-1,1;UNTIL=20300101"]))

    static let alphabet = Array(":;=,\"\\\r\n \t-+ZTPWDHMS0123456789ABEGINDVX".utf8) + [0xC4, 0x9F, 0xFF]

    @Test func damagedCalendarsFailWithTypedErrorsOnly() throws {
        var generator = Generator(state: 2024)
        let window = DateInterval(start: CalendarFixture.utc(2020, 1, 1), end: CalendarFixture.utc(2031, 1, 1))
        var read = 0
        for _ in 0..<200 {
            var bytes = Self.seed
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = Self.alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: index)
                default: bytes.insert(Self.alphabet.randomElement(using: &generator)!, at: index)
                }
            }
            let calendars = try CalendarFixture.store(["f.ics": bytes], limits: RecurrenceLimits(maxOccurrences: 2000, maxPeriods: 20_000))
            switch Result(catching: { () throws(EraserKitError) in try calendars.store.occurrences(in: window) }) {
            case .success: read += 1
            case .failure(let error):
                guard case .calendar = error else { Issue.record("\(error)"); continue }
            }
            if let events = try? calendars.store.events(offset: 0, limit: 10) {
                for event in events {
                    if let removed = try? calendars.store.remove(event.id) {
                        try calendars.store.restore(removed)
                        #expect(try calendars.bytes("f.ics") == bytes)
                    }
                }
            }
        }
        #expect(read > 20, "some damage leaves a readable calendar (\(read) of 200)")
    }
}
