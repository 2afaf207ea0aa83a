import Foundation
import Synchronization
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct ScanEngineTests {
    @Test func everyPhaseFindsExactlyThePlantedItems() async throws {
        let scenario = try ScanScenario()
        let summary = try await scenario.engine.start(ScanScenario.configuration)
        let results = try await scenario.engine.review().results()

        #expect(results.map(\.rawID) == ScanScenario.expectedOrder)
        let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.rawID, $0) })
        #expect(byID["p000005"]?.categories == [.face])
        #expect(byID["p000060"]?.categories == [.face, .dateRange])
        #expect(byID["p000080"]?.categories == [.dateRange])
        #expect(byID["p000090"]?.kind == .video)
        #expect(byID["home/e-both"]?.categories == [.dateRange, .contact])
        #expect(byID["home/e-both"]?.contactHit == ContactHit(field: .attendeeEmail, value: "DENIZ@example.com", confidence: 0.95))
        #expect(byID["home/e-title"]?.contactHit?.field == .title)
        #expect(byID["home/e-inrange"]?.kind == .calendarEvent)
        #expect(abs((byID["p000010"]?.faceDistance ?? 0) - 0.3) < 1e-6)
        #expect(abs((byID["p000010"]?.confidence ?? 0) - 0.8) < 1e-6)

        #expect(summary == ScanSummary(
            resultCount: 9, byCategory: [.face: 3, .dateRange: 5, .contact: 3], skipped: 1, threshold: 0.6))
        #expect(await scenario.engine.state == .review(summary))
        // Each photo embedded once; videos never.
        #expect(scenario.embedder.calledNames == ScanScenario.embeddedNames(0..<130))
        #expect(try scenario.store.skipped().map(\.0) == [AssetID(rawValue: "p000125")])
    }

    @Test func batchesAreFiftyAssetsFromTheCheckpointOffset() async throws {
        let scenario = try ScanScenario()
        var configuration = ScanScenario.configuration
        configuration.contact = nil
        configuration.includeCalendar = false
        _ = try await scenario.engine.start(configuration)
        // Faces, then date ranges: each walks the library once, 50 at a time.
        #expect(scenario.library.listCalls == [0, 50, 100, 0, 50, 100].map {
            ScanFakeLibrary.ListCall(offset: $0, limit: 50, returned: min(50, 130 - $0))
        })
    }

    @Test func referencePhotosAreEmbeddedOnceAndMustShowOneFace() async throws {
        let references = ["ref-1", "ref-2", "ref-3"].map { URL(fileURLWithPath: "/refs/\($0).jpg") }
        let directory = try TemporaryDirectory()
        let library = ScanFakeLibrary(assets: [ScanFixtures.photo(1, ScanFixtures.date(2022, 1, 1))])
        let embedder = ScanFakeEmbedder { name throws(EraserKitError) in
            switch name {
            case "ref-1", "ref-2": [ScanFixtures.face(at: 0)]
            case "ref-3": [ScanFixtures.face(at: 0.1)]
            case "ref-group": [ScanFixtures.face(at: 0), ScanFixtures.stranger]
            default: [ScanFixtures.face(at: 0.35)]
            }
        }
        let engine = ScanEngine(library: library, embedder: embedder, store: try ScanFixtures.store(in: directory))
        let summary = try await engine.start(ScanConfiguration(references: .photos(references)))
        #expect(summary.resultCount == 1)
        #expect(embedder.calledNames == ["ref-1", "ref-2", "ref-3", "p000001"])
        // The nearest reference counts: 0.25 from ref-3.
        #expect(abs((try await engine.review().results().first?.faceDistance ?? 0) - 0.25) < 1e-6)

        let group = URL(fileURLWithPath: "/refs/ref-group.jpg")
        await #expect(throws: EraserKitError.scan(.unusableReference(path: group.path, faces: 2))) {
            try await engine.start(ScanConfiguration(references: .photos([group])))
        }
        #expect(await engine.state == .error(.scan(.unusableReference(path: group.path, faces: 2))))
    }

    @Test func missingServicesAndStatesAreTypedErrors() async throws {
        let directory = try TemporaryDirectory()
        let engine = ScanEngine(library: ScanFakeLibrary(), store: try ScanFixtures.store(in: directory))
        await #expect(throws: EraserKitError.scan(.noScan)) { try await engine.resume() }
        await #expect(throws: EraserKitError.scan(.missingDependency("a face embedder"))) {
            try await engine.start(ScanConfiguration(references: .descriptors([ScanFixtures.reference])))
        }
        await #expect(throws: EraserKitError.scan(.missingDependency("a calendar"))) {
            try await engine.start(ScanConfiguration(contact: ScanScenario.contact))
        }
        await #expect(throws: EraserKitError.scan(.nothingToScan)) { try await engine.start(ScanConfiguration()) }
        #expect(await engine.state == .error(.scan(.nothingToScan)))
    }

    @Test func progressReportsDoneTotalRateAndTimeLeft() async throws {
        let ticks = Mutex(0.0)
        let scenario = try ScanScenario(clock: { ticks.withLock { $0 += 1; return $0 } })
        let states = await scenario.engine.states()
        var configuration = ScanScenario.configuration
        configuration.contact = nil
        configuration.includeCalendar = false
        configuration.dateRanges = []
        _ = try await scenario.engine.start(configuration)

        var seen: [ScanState] = []
        for await state in states {
            seen.append(state)
            if case .review = state { break }
        }
        let progress = seen.compactMap { state -> ScanProgress? in
            if case .scanning(let progress) = state { progress } else { nil }
        }
        #expect(seen.first == .idle)
        #expect(progress.map(\.done) == [0, 50, 100, 130])
        #expect(progress.allSatisfy { $0.total == 130 && $0.phase == .faces && $0.phaseCount == 1 })
        // One clock tick per report: 50 items in the first second, 100 in two, 130 in three.
        #expect(progress.map(\.itemsPerSecond) == [nil, 50, 50, 130.0 / 3])
        #expect(progress.map(\.secondsRemaining) == [nil, 1.6, 0.6, 0])
    }
}
