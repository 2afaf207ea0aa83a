import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct LargeLibraryScanTests {
    /// 50 000 assets made on demand: the scan walks them 50 at a time and keeps only findings.
    @Test func fiftyThousandAssetsScanInBatchesKeepingOnlyMatches() async throws {
        let count = 50_000
        let directory = try TemporaryDirectory()
        let store = try ScanFixtures.store(in: directory)
        let library = ScanFakeLibrary(
            count: count, make: { ScanFixtures.photo($0, ScanFixtures.date(2020, 1, 1).addingTimeInterval(Double($0) * 600)) },
            index: ScanFixtures.index(of:))
        // The ex in 5 photos, a stranger in every 1000th, nobody elsewhere.
        let embedder = ScanFakeEmbedder { name throws(EraserKitError) in
            guard let n = ScanFixtures.index(of: AssetID(rawValue: name)) else { return [] }
            if n % 10_000 == 1234 { return [ScanFixtures.face(at: 0.3)] }
            if n % 1000 == 0 { return [ScanFixtures.stranger] }
            return []
        }
        let engine = ScanEngine(library: library, embedder: embedder, store: store)
        let summary = try await engine.start(ScanConfiguration(references: .descriptors([ScanFixtures.reference])))

        #expect(summary.resultCount == 5)
        #expect(try await engine.review().results().map(\.rawID) == ["p041234", "p031234", "p021234", "p011234", "p001234"])
        #expect(embedder.calledNames.count == count)
        // Never more than one batch listed at a time, each batch once, in order.
        let calls = library.listCalls
        // (The last batch is full, so one more listing finds the end.)
        #expect(calls.map(\.offset) == Array(stride(from: 0, through: count, by: 50)))
        #expect(calls.dropLast().allSatisfy { $0.limit == 50 && $0.returned == 50 })
        #expect(calls.last == ScanFakeLibrary.ListCall(offset: count, limit: 50, returned: 0))
        // The store holds the findings and the faces seen, nothing per face-less photo.
        #expect(try store.matches().count == 5)
        #expect(try store.descriptorCount() == 55)
    }
}
