import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct ScanReviewTests {
    private func asset(_ n: Int) -> ScanItem { .asset(ScanFixtures.assetID(n)) }
    private func event(_ name: String) -> ScanItem { .event(EventID(rawValue: "home/e-\(name)")) }

    @Test func aNewThresholdUsesTheCachedDescriptorsOnly() async throws {
        let scenario = try ScanScenario()
        _ = try await scenario.engine.start(ScanScenario.configuration)
        let embedded = scenario.embedder.calledNames.count
        #expect(try scenario.store.descriptorCount() == 5)

        let looser = try await scenario.engine.rethreshold(0.7)
        #expect(scenario.embedder.calledNames.count == embedded)
        #expect(looser.byCategory[.face] == 4)
        #expect(await scenario.engine.state == .review(looser))
        let results = try await scenario.engine.review().results()
        let p70 = try #require(results.first { $0.rawID == "p000070" })
        #expect(p70.categories == [.face])
        #expect(abs(p70.confidence - FaceDistance.confidence(distance: 0.65, threshold: 0.7)) < 1e-6)

        // Stricter: p000060 (0.55) stays a result through its date only.
        let stricter = try await scenario.engine.rethreshold(0.4)
        #expect(scenario.embedder.calledNames.count == embedded)
        #expect(stricter.byCategory[.face] == 2)
        let after = try await scenario.engine.review().results()
        #expect(after.first { $0.rawID == "p000060" }?.categories == [.dateRange])
        #expect(after.first { $0.rawID == "p000060" }?.confidence == ScanEngine.dateRangeConfidence)
        #expect(after.contains { $0.rawID == "p000070" } == false)

        // Persisted: a new store on the same file sees the threshold and the matches.
        let reopened = ScanReview(store: try ScanFixtures.store(in: scenario.directory))
        #expect(try reopened.summary() == stricter)
        #expect(try reopened.results() == after)
        #expect(throws: EraserKitError.scan(.invalidThreshold(-1))) { try reopened.rethreshold(-1) }
    }

    @Test func decisionsArePendingUntilCarriedOut() async throws {
        let scenario = try ScanScenario()
        _ = try await scenario.engine.start(ScanScenario.configuration)
        let review = await scenario.engine.review()
        try review.decide(asset(10), .vault)
        try review.decide(event("both"), .delete)
        try review.decide(asset(80), .keep)
        try review.decide(asset(5), .delete)
        try review.decide(asset(5), .keep)  // changed before anything happened
        #expect(throws: EraserKitError.scan(.notAResult("asset:p000070"))) { try review.decide(asset(70), .vault) }

        #expect(try review.pendingDecisions() == [
            PendingDecision(item: event("both"), kind: .calendarEvent, decision: .delete),
            PendingDecision(item: asset(10), kind: .photo, decision: .vault),
        ])
        try review.markExecuted(event("both"))
        #expect(try review.pendingDecisions().map(\.item) == [asset(10)])
        #expect(throws: EraserKitError.scan(.wrongState("already carried out (delete) for event:home/e-both"))) {
            try review.decide(event("both"), .keep)
        }
        #expect(throws: EraserKitError.scan(.notAResult("asset:p000011"))) { try review.markExecuted(asset(11)) }

        // Persisted in the same store.
        let reopened = ScanReview(store: try ScanFixtures.store(in: scenario.directory))
        #expect(try reopened.results().compactMap { result in result.decision.map { "\(result.rawID)=\($0.rawValue)" } }
            == ["home/e-both=delete", "p000005=keep", "p000010=vault", "p000080=keep"])

        let cleanup = try await scenario.engine.finishReview()
        #expect(cleanup == CleanupSummary(vaulted: 1, deleted: 1, kept: 2, undecided: 5))
        #expect(await scenario.engine.state == .complete(cleanup))
        #expect(throws: EraserKitError.scan(.wrongState("complete"))) { try review.decide(asset(10), .keep) }
    }

    @Test func theUserCanAddWhatTheScanMissed() async throws {
        let scenario = try ScanScenario()
        _ = try await scenario.engine.start(ScanScenario.configuration)
        let review = await scenario.engine.review()
        let added = try review.addManually(asset(100))
        #expect(added.categories == [.manual])
        #expect(added.confidence == 1)
        #expect(added.date == ScanFixtures.date(2023, 4, 1, 0))
        let addedEvent = try review.addManually(event("other"))
        #expect(addedEvent.kind == .calendarEvent)
        // Adding a result already found keeps its categories and lifts it to the top.
        let both = try review.addManually(asset(60))
        #expect(both.categories == [.face, .dateRange, .manual])
        #expect(try review.results().prefix(3).map(\.rawID) == ["p000100", "p000060", "home/e-other"])
        try review.decide(asset(100), .vault)

        #expect(throws: EraserKitError.library(.notFound(ScanFixtures.assetID(9999)))) { try review.addManually(asset(9999)) }
        #expect(throws: EraserKitError.calendar(.notFound(EventID(rawValue: "home/e-nope")))) {
            try review.addManually(event("nope"))
        }
        // A rethreshold keeps manual additions.
        _ = try await scenario.engine.rethreshold(0.1)
        #expect(try review.results().prefix(2).map(\.rawID) == ["p000100", "p000060"])
    }

    @Test func theReviewNeedsAFinishedScan() async throws {
        let directory = try TemporaryDirectory()
        let review = ScanReview(store: try ScanFixtures.store(in: directory))
        #expect(throws: EraserKitError.scan(.noScan)) { try review.results() }

        let scenario = try ScanScenario(hook: { name, engine in
            if name == "p000001" { await engine.cancel() }
        })
        await #expect(throws: EraserKitError.scan(.cancelled)) { try await scenario.engine.start(ScanScenario.configuration) }
        let review2 = await scenario.engine.review()
        #expect(throws: EraserKitError.scan(.wrongState("cancelled"))) { try review2.results() }
        await #expect(throws: EraserKitError.scan(.wrongState("cancelled"))) { try await scenario.engine.rethreshold(0.5) }
    }
}
