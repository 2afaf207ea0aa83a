import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

/// `ScanStore.restored(_:as:)`: a result whose item came back under a new id (PhotoKit,
/// EventKit) moves there whole — findings, cached descriptors, decision — so the review and a
/// later rethreshold never name the old id again.
@Suite struct ScanRestoredResultTests {
    @Test func aRestoredResultMovesToItsNewIdAndSurvivesARethreshold() async throws {
        let scenario = try ScanScenario()
        _ = try await scenario.engine.start(ScanScenario.configuration)
        let review = ScanReview(store: scenario.store)
        let old = ScanItem.asset(ScanFixtures.assetID(10))
        let new = ScanItem.asset(AssetID(rawValue: "restored-p000010"))
        let before = try #require(try review.results().first { $0.item == old })
        try review.decide(old, .vault)
        try review.markExecuted(old)

        #expect(try scenario.store.restored(old, as: new))
        let moved = try review.results()
        #expect(!moved.contains { $0.item == old })
        let result = try #require(moved.first { $0.item == new })
        #expect(result.categories == before.categories)
        #expect(result.confidence == before.confidence)
        #expect(result.decision == .keep)
        #expect(try review.pendingDecisions().isEmpty)
        let cached = try scenario.store.descriptorPage(after: nil, limit: 100).map(\.0.rawValue)
        #expect(cached.contains("restored-p000010") && !cached.contains("p000010"))

        // A rethreshold recomputes the face findings from the cache: under the new id only.
        _ = try review.rethreshold(0.7)
        let items = try review.results().map(\.item)
        #expect(items.contains(new) && !items.contains(old))
        try review.decide(new, .delete)
        #expect(try review.pendingDecisions().map(\.item) == [new])

        // An item that was not a result changes nothing.
        let stranger = ScanItem.asset(AssetID(rawValue: "not-a-result"))
        #expect(try scenario.store.restored(stranger, as: .asset(AssetID(rawValue: "elsewhere"))) == false)
        #expect(try review.results().map(\.item) == items)
    }
}
