import Foundation
import KindredTestSupport
import Synchronization
import Testing

@testable import EraserKit

/// The face phase with an embedder that works on several photos at once: up to its
/// `concurrency` requests in flight, never more, and the same findings, in the same order, as
/// one at a time; a failure stops the scan at the first failing photo in the batch's order.
@Suite struct ScanConcurrencyTests {
    /// Counts requests in flight and remembers the most seen at once.
    final class InFlight: Sendable {
        private let counts = Mutex<(now: Int, most: Int)>((0, 0))
        var most: Int { counts.withLock { $0.most } }

        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
    }

    /// The scenario's library and calendar with an embedder of `concurrency`, each request held
    /// for a moment so requests overlap.
    private func engine(concurrency: Int, inFlight: InFlight,
                        faces: @escaping @Sendable (String) throws(EraserKitError) -> [DetectedFace] = ScanScenario.faces)
    throws -> (ScanEngine, ScanStore, ScanFakeEmbedder, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let store = try ScanFixtures.store(in: directory)
        let library = ScanFakeLibrary(count: ScanScenario.assetCount, make: ScanScenario.asset, index: ScanFixtures.index(of:))
        let embedder = ScanFakeEmbedder(concurrency: concurrency, hook: { _ in
            inFlight.enter()
            try? await Task.sleep(for: .milliseconds(2))
            inFlight.leave()
        }, faces: faces)
        let engine = ScanEngine(
            library: library, calendar: ScanFakeCalendar(events: ScanScenario.events), embedder: embedder,
            contactMatcher: { ScanFakeContactMatcher(contact: $0) }, store: store)
        return (engine, store, embedder, directory)
    }

    @Test func severalPhotosInFlightFindTheSameInTheSameOrder() async throws {
        let inFlight = InFlight()
        let (engine, store, embedder, directory) = try engine(concurrency: 4, inFlight: inFlight)
        _ = directory
        let summary = try await engine.start(ScanScenario.configuration)
        let results = try await engine.review().results()
        #expect(results.map(\.rawID) == ScanScenario.expectedOrder)
        #expect(summary == ScanSummary(
            resultCount: 9, byCategory: [.face: 3, .dateRange: 5, .contact: 3], skipped: 1, threshold: 0.6))
        #expect(Set(embedder.calledNames) == Set(ScanScenario.embeddedNames(0..<130)))
        #expect(embedder.calledNames.count == ScanScenario.embeddedNames(0..<130).count)
        #expect(inFlight.most == 4)
        #expect(try store.skipped().map(\.0) == [AssetID(rawValue: "p000125")])
    }

    @Test func theFirstFailureInOrderStopsTheScanBeforeItsBatchIsCommitted() async throws {
        let inFlight = InFlight()
        let (engine, store, _, directory) = try engine(concurrency: 3, inFlight: inFlight) { name throws(EraserKitError) in
            switch name {
            case "p000061": throw .faces(.workerFailed("first"))
            case "p000063": throw .faces(.workerFailed("second"))
            default: return try ScanScenario.faces(name)
            }
        }
        _ = directory
        let error = await #expect(throws: EraserKitError.self) { try await engine.start(ScanScenario.configuration) }
        #expect(error == .faces(.workerFailed("first")))
        let checkpoint = try #require(try store.checkpoint())
        #expect(checkpoint.status == .failed)
        #expect(checkpoint.phase == .faces)
        #expect(checkpoint.offset == 50)  // The first batch is committed; the second is not.
        #expect(inFlight.most <= 3)
    }
}
