@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Testing

/// The quiet window: inside it a notification waits for its end, read on the user's own
/// clock, across midnight and DST changes.
@Suite struct QuietHoursTests {
    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? Date.distantPast
    }

    static let chicago = TimeZone(identifier: "America/Chicago")!

    @Test func aWindowAcrossMidnightDefersToItsEnd() throws {
        let quiet = try #require(QuietHours(start: 22 * 60, end: 7 * 60, timeZone: Self.chicago))
        // 23:30 CST on 2026-01-10 is 05:30Z on the 11th; the window ends at 07:00 CST = 13:00Z.
        #expect(quiet.deferral(at: Self.date("2026-01-11T05:30:00Z")) == Self.date("2026-01-11T13:00:00Z"))
        // 03:00 local, the same night.
        #expect(quiet.deferral(at: Self.date("2026-01-11T09:00:00Z")) == Self.date("2026-01-11T13:00:00Z"))
        // 07:00 local sharp is outside (the end is exclusive); 21:59 too.
        #expect(quiet.deferral(at: Self.date("2026-01-11T13:00:00Z")) == nil)
        #expect(quiet.deferral(at: Self.date("2026-01-11T03:59:00Z")) == nil)
        #expect(quiet.deferral(at: Self.date("2026-01-11T04:00:00Z")) == Self.date("2026-01-11T13:00:00Z"))
    }

    @Test func aDaytimeWindowDefersWithinTheDay() throws {
        let tokyo = try #require(QuietHours(start: 12 * 60, end: 13 * 60 + 30, timeZone: TimeZone(identifier: "Asia/Tokyo")!))
        #expect(tokyo.deferral(at: Self.date("2026-06-01T03:15:00Z")) == Self.date("2026-06-01T04:30:00Z"))
        #expect(tokyo.deferral(at: Self.date("2026-06-01T05:00:00Z")) == nil)
    }

    @Test func theWindowEndsOnTheLocalClockAcrossDSTChanges() throws {
        let quiet = try #require(QuietHours(start: 22 * 60, end: 7 * 60, timeZone: Self.chicago))
        // Spring forward on 2026-03-08: 23:00 CST (05:00Z) → 07:00 CDT = 12:00Z, not 13:00Z.
        #expect(quiet.deferral(at: Self.date("2026-03-08T05:00:00Z")) == Self.date("2026-03-08T12:00:00Z"))
        // Fall back on 2026-11-01: 23:00 CDT (04:00Z) → 07:00 CST = 13:00Z.
        #expect(quiet.deferral(at: Self.date("2026-11-01T04:00:00Z")) == Self.date("2026-11-01T13:00:00Z"))
    }

    @Test func aWindowEndingInTheSkippedHourEndsWhenTheClockJumps() throws {
        // Quiet 01:00–02:30 on the night clocks jump from 02:00 to 03:00: 02:30 does not exist.
        let quiet = try #require(QuietHours(start: 60, end: 150, timeZone: Self.chicago))
        // 01:30 CST = 07:30Z; the first instant at or after 02:30 local is 03:00 CDT = 08:00Z.
        #expect(quiet.deferral(at: Self.date("2026-03-08T07:30:00Z")) == Self.date("2026-03-08T08:00:00Z"))
    }

    @Test func equalOrOutOfRangeBoundsAreRefused() {
        #expect(QuietHours(start: 600, end: 600, timeZone: Self.chicago) == nil)
        #expect(QuietHours(start: 1440, end: 0, timeZone: Self.chicago) == nil)
        #expect(QuietHours(start: -1, end: 10, timeZone: Self.chicago) == nil)
    }
}
