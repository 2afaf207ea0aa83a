import Foundation
import Testing
@testable import StreakKit

/// `AnalyticsCache`: served while the fingerprint holds, recomputed when it changes.
@Suite struct AnalyticsCacheTests {
    @Test func theFingerprintIsTheCountAndTheLastRecording() {
        let a = Fixtures.result(day: Fixtures.monday, hour: 9)
        let b = Fixtures.result(day: Fixtures.monday.adding(days: 1), hour: 8)
        #expect(AnalyticsFingerprint(of: []) == AnalyticsFingerprint(count: 0, lastRecordedAt: nil))
        #expect(AnalyticsFingerprint(of: [b, a]) == AnalyticsFingerprint(count: 2, lastRecordedAt: b.recordedAt))
        #expect(AnalyticsFingerprint(of: [a]) != AnalyticsFingerprint(of: [a, b]))
    }

    @Test func servesTheCachedValueAndRecomputesWhenTheDataChanges() {
        var results = [Fixtures.result(day: Fixtures.monday)]
        let now = Fixtures.instant(Fixtures.monday, hour: 20)
        var cache = AnalyticsCache<AnalyticsRange, RangeSummary>()
        func lookup(_ range: AnalyticsRange) -> RangeSummary {
            cache.value(for: range, fingerprint: AnalyticsFingerprint(of: results)) {
                Analytics.summary(of: results, range: range, now: now, timeZone: Fixtures.utc)
            }
        }
        #expect(lookup(.week).played == 1 && cache.computations == 1)
        #expect(lookup(.week).played == 1 && cache.computations == 1)
        #expect(lookup(.month).played == 1 && cache.computations == 2)
        results.append(Fixtures.result(.connections, day: Fixtures.monday, hour: 13))
        #expect(lookup(.week).played == 2 && cache.computations == 3)
        #expect(lookup(.month).played == 2 && cache.computations == 4)
        #expect(lookup(.week).played == 2 && cache.computations == 4)
    }
}
