@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Testing

/// Next runs computed in IANA zones across DST transitions, with pinned instants.
///
/// America/Chicago 2026: spring forward 03-08 at 08:00Z (02:00 CST → 03:00 CDT), fall back
/// 11-01 at 07:00Z (02:00 CDT → 01:00 CST). Pacific/Auckland 2026: fall back 04-05 (03:00
/// NZDT → 02:00 NZST at 04-04T14:00Z), spring forward 09-27 (02:00 NZST → 03:00 NZDT at
/// 09-26T14:00Z). Europe/Istanbul (+03) and Asia/Tokyo (+09) have no DST.
@Suite struct CronDSTTests {
    /// The next `count` runs after `start`, as ISO 8601 UTC strings.
    func runs(_ expression: String, _ zone: String, after start: String, count: Int) throws -> [String] {
        let schedule = try CronSchedule(expression)
        let timeZone = try #require(TimeZone(identifier: zone))
        var instant = try Date(start, strategy: .iso8601)
        var result: [String] = []
        for _ in 0..<count {
            instant = try #require(schedule.nextRun(after: instant, in: timeZone))
            result.append(instant.formatted(.iso8601))
        }
        return result
    }

    @Test func chicagoSpringForwardRunsASkippedTimeOnceAfterTheGap() throws {
        // 02:30 does not exist on 03-08: it runs at 03:00 CDT, then 02:30 CDT the next day.
        #expect(try runs("30 2 * * *", "America/Chicago", after: "2026-03-06T12:00:00Z", count: 3)
            == ["2026-03-07T08:30:00Z", "2026-03-08T08:00:00Z", "2026-03-09T07:30:00Z"])
        // Every 15 minutes: 02:00–02:45 are all skipped; they run once, at 03:00 CDT.
        #expect(try runs("*/15 * * * *", "America/Chicago", after: "2026-03-08T07:30:00Z", count: 3)
            == ["2026-03-08T07:45:00Z", "2026-03-08T08:00:00Z", "2026-03-08T08:15:00Z"])
    }

    @Test func chicagoFallBackRunsARepeatedTimeOnceAtItsFirstOccurrence() throws {
        // 01:30 happens twice on 11-01 (CDT, then CST): it runs at the first only.
        #expect(try runs("30 1 * * *", "America/Chicago", after: "2026-10-30T12:00:00Z", count: 3)
            == ["2026-10-31T06:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T07:30:00Z"])
        // Every 15 minutes: 01:00–01:45 run in CDT; the repeated hour in CST does not run again.
        #expect(try runs("*/15 * * * *", "America/Chicago", after: "2026-11-01T06:30:00Z", count: 3)
            == ["2026-11-01T06:45:00Z", "2026-11-01T08:00:00Z", "2026-11-01T08:15:00Z"])
    }

    @Test func chicagoElevenPMDailyAcrossBothTransitions() throws {
        #expect(try runs("0 23 * * *", "America/Chicago", after: "2026-03-06T12:00:00Z", count: 3)
            == ["2026-03-07T05:00:00Z", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z"])
        #expect(try runs("0 23 * * *", "America/Chicago", after: "2026-10-30T12:00:00Z", count: 3)
            == ["2026-10-31T04:00:00Z", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"])
    }

    @Test func istanbulHasNoDST() throws {
        #expect(try runs("0 9 * * mon", "Europe/Istanbul", after: "2026-03-07T00:00:00Z", count: 2)
            == ["2026-03-09T06:00:00Z", "2026-03-16T06:00:00Z"])
        // Europe's spring forward (03-29) does not move Istanbul.
        #expect(try runs("0 3 * * *", "Europe/Istanbul", after: "2026-03-28T12:00:00Z", count: 2)
            == ["2026-03-29T00:00:00Z", "2026-03-30T00:00:00Z"])
    }

    @Test func tokyo() throws {
        #expect(try runs("0 0 1 * *", "Asia/Tokyo", after: "2026-03-15T00:00:00Z", count: 2)
            == ["2026-03-31T15:00:00Z", "2026-04-30T15:00:00Z"])
        #expect(try runs("30 8 * * *", "Asia/Tokyo", after: "2026-11-01T00:00:00Z", count: 1) == ["2026-11-01T23:30:00Z"])
    }

    @Test func aucklandSouthernFallBackInApril() throws {
        // 02:30 on 04-05 happens twice (NZDT +13, then NZST +12): the first one runs.
        #expect(try runs("30 2 * * *", "Pacific/Auckland", after: "2026-04-03T00:00:00Z", count: 3)
            == ["2026-04-03T13:30:00Z", "2026-04-04T13:30:00Z", "2026-04-05T14:30:00Z"])
    }

    @Test func aucklandSouthernSpringForwardInSeptember() throws {
        // 02:30 on 09-27 does not exist: it runs at 03:00 NZDT (the transition, 09-26T14:00Z).
        #expect(try runs("30 2 * * *", "Pacific/Auckland", after: "2026-09-25T00:00:00Z", count: 3)
            == ["2026-09-25T14:30:00Z", "2026-09-26T14:00:00Z", "2026-09-27T13:30:00Z"])
    }

    @Test func everyFifteenMinutesUTC() throws {
        #expect(try runs("*/15 * * * *", "UTC", after: "2026-03-08T07:50:00Z", count: 4)
            == ["2026-03-08T08:00:00Z", "2026-03-08T08:15:00Z", "2026-03-08T08:30:00Z", "2026-03-08T08:45:00Z"])
        #expect(try runs("*/15 * * * *", "UTC", after: "2026-11-01T06:59:59Z", count: 1) == ["2026-11-01T07:00:00Z"])
    }
}
