import Foundation
import KindredTestSupport
import Synchronization
import Testing

@testable import EraserKit

@Suite struct ScanResumeTests {
    /// The library's 50-asset listings, without the 1-asset look-ups a resume makes.
    private func batchOffsets(_ library: ScanFakeLibrary) -> [Int] {
        library.listCalls.filter { $0.limit == 50 }.map(\.offset)
    }

    @Test func aCancelStopsAfterTheBatchAndResumeDoesEachBatchOnce() async throws {
        let scenario = try ScanScenario(hook: { name, engine in
            if name == "p000075" { await engine.cancel() }
        })
        await #expect(throws: EraserKitError.scan(.cancelled)) {
            try await scenario.engine.start(ScanScenario.configuration)
        }
        #expect(await scenario.engine.state == .error(.scan(.cancelled)))
        // The second batch was finished and saved; the third never started.
        #expect(scenario.embedder.calledNames == ScanScenario.embeddedNames(0..<100))
        let checkpoint = try #require(try scenario.store.checkpoint())
        #expect(checkpoint.status == .cancelled)
        #expect(checkpoint.phase == .faces)
        #expect(checkpoint.offset == 100)
        #expect(checkpoint.lastKey == "asset:p000099")
        #expect(try scenario.store.matches().map(\.item.key) == ["asset:p000005", "asset:p000010", "asset:p000060"])

        let summary = try await scenario.engine.resume()
        #expect(summary.resultCount == 9)
        #expect(scenario.embedder.calledNames == ScanScenario.embeddedNames(0..<130))
        #expect(batchOffsets(scenario.library) == [0, 50, 100, 0, 50, 100])
        #expect(try await scenario.engine.review().results().map(\.rawID) == ScanScenario.expectedOrder)
    }

    @Test func taskCancellationAlsoLeavesAResumableCheckpoint() async throws {
        let scenario = try ScanScenario(hook: { name, _ in
            if name == "p000020" { withUnsafeCurrentTask { $0?.cancel() } }
        })
        let engine = scenario.engine
        let task = Task { try await engine.start(ScanScenario.configuration) }
        await #expect(throws: EraserKitError.scan(.cancelled)) { try await task.value }
        #expect(try scenario.store.checkpoint()?.offset == 50)
        #expect(scenario.embedder.calledNames == ScanScenario.embeddedNames(0..<50))

        _ = try await engine.resume()
        #expect(scenario.embedder.calledNames == ScanScenario.embeddedNames(0..<130))
        #expect(try await engine.review().results().map(\.rawID) == ScanScenario.expectedOrder)
    }

    @Test func aCancelBetweenPhasesResumesAtTheNextPhase() async throws {
        // Cancelled at the last photo: the face phase finishes, the date-range phase never starts.
        let scenario = try ScanScenario(hook: { name, engine in
            if name == "p000129" { await engine.cancel() }
        })
        await #expect(throws: EraserKitError.scan(.cancelled)) { try await scenario.engine.start(ScanScenario.configuration) }
        let checkpoint = try #require(try scenario.store.checkpoint())
        #expect(checkpoint.phase == .dateRanges)
        #expect(checkpoint.offset == 0)
        _ = try await scenario.engine.resume()
        #expect(batchOffsets(scenario.library) == [0, 50, 100, 0, 50, 100])
        #expect(scenario.embedder.calledNames == ScanScenario.embeddedNames(0..<130))
    }

    @Test func aFailingEmbedderStopsTheScanResumably() async throws {
        let down = Mutex(true)
        let directory = try TemporaryDirectory()
        let library = ScanFakeLibrary(count: ScanScenario.assetCount, make: ScanScenario.asset, index: ScanFixtures.index(of:))
        let embedder = ScanFakeEmbedder { name throws(EraserKitError) in
            if name == "p000060", down.withLock({ $0 }) { throw .faces(.unavailable("the dlib worker exited")) }
            return try ScanScenario.faces(name)
        }
        let store = try ScanFixtures.store(in: directory)
        let engine = ScanEngine(library: library, embedder: embedder, store: store)
        let configuration = ScanConfiguration(references: .descriptors([ScanFixtures.reference]))
        await #expect(throws: EraserKitError.faces(.unavailable("the dlib worker exited"))) { try await engine.start(configuration) }
        #expect(try store.checkpoint()?.status == .failed)
        #expect(try store.checkpoint()?.offset == 50)

        down.withLock { $0 = false }
        let summary = try await engine.resume()
        #expect(summary.resultCount == 3)
        // The first batch is not embedded again; the failed batch is redone from its start.
        #expect(embedder.calledNames == ScanScenario.embeddedNames(0..<61) + ScanScenario.embeddedNames(50..<130))
        await #expect(throws: EraserKitError.scan(.wrongState("review"))) { try await engine.resume() }
    }

    @Test func aLibraryChangedBeforeTheResumeRestartsThePhase() async throws {
        let first = Mutex(true)
        let scenario = try ScanScenario(hook: { name, engine in
            // Only the first time: the resumed scan embeds p000030 again.
            if name == "p000030", first.withLock({ value in defer { value = false }; return value }) { await engine.cancel() }
        })
        await #expect(throws: EraserKitError.scan(.cancelled)) { try await scenario.engine.start(ScanScenario.configuration) }
        // Pretend the asset before the offset changed: the phase restarts, findings do not double.
        var checkpoint = try #require(try scenario.store.checkpoint())
        checkpoint.lastKey = "asset:gone"
        try scenario.store.saveCheckpoint(checkpoint)
        _ = try await scenario.engine.resume()
        #expect(batchOffsets(scenario.library) == [0, 0, 50, 100, 0, 50, 100])
        #expect(try await scenario.engine.review().results().map(\.rawID) == ScanScenario.expectedOrder)
    }
}
