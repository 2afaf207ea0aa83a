import Foundation
import KindredTestSupport
import Testing

@testable import EraserKit

@Suite struct ScanStoreTests {
    /// Whether `needle` occurs in `haystack`.
    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// The little-endian bytes of some floats, as the descriptor cache would hold them in clear.
    private func bytes(_ floats: [Float]) -> [UInt8] {
        floats.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init) }
    }

    @Test func theDatabaseFileHoldsNoDescriptorContactOrDateInClear() async throws {
        let scenario = try ScanScenario()
        _ = try await scenario.engine.start(ScanScenario.configuration)
        let file = Array(try Data(contentsOf: scenario.store.url))

        // The ids are the rows' keys, in clear: the search does find what is there.
        #expect(contains(file, Array("p000010".utf8)))
        // p000010's face: 1, 0.3, then zeros; the reference: 1 then zeros.
        #expect(!contains(file, bytes([1, 0.3, 0, 0])))
        #expect(!contains(file, bytes([0.3, 0, 0, 0])))
        #expect(!contains(file, bytes([0.55, 0, 0])))
        #expect(!contains(file, bytes([1, 0, 0, 0, 0, 0])))
        // The contact and the configuration are sealed too.
        #expect(!contains(file, Array("deniz@example.com".utf8)))
        #expect(!contains(file, Array("Deniz".utf8)))
        #expect(!contains(file, Array("threshold".utf8)))
        // Yet the cache opens with the key and gives back the exact floats.
        let page = try scenario.store.descriptorPage(after: nil, limit: 10)
        #expect(page.map(\.0.rawValue) == ["p000005", "p000010", "p000060", "p000070", "p000080"])
        #expect(page[1].1 == CachedFaces(
            date: ScanScenario.asset(10).captureDate.date, mediaType: .photo, descriptors: [ScanFixtures.face(at: 0.3).descriptor]))
    }

    @Test func anotherKeyOrAMovedRowDoesNotOpen() async throws {
        let scenario = try ScanScenario()
        _ = try await scenario.engine.start(ScanScenario.configuration)

        let otherKey = ScanReview(store: try ScanFixtures.store(in: scenario.directory, keyBytes: Array(repeating: 9, count: 32)))
        #expect(throws: EraserKitError.scan(.sealedRowDoesNotOpen("scan_checkpoint row 1"))) { try otherKey.results() }

        // A descriptor row copied onto another asset: bound to its asset id, it does not open.
        try scenario.store.write("move a row") { db in
            try db.execute(sql: "UPDATE scan_descriptor SET sealed = (SELECT sealed FROM scan_descriptor WHERE asset = 'p000010') WHERE asset = 'p000060'")
        }
        #expect(throws: EraserKitError.scan(.sealedRowDoesNotOpen("descriptor of p000060"))) {
            try scenario.store.descriptorPage(after: nil, limit: 10)
        }
    }

    @Test func keysMustBe32Bytes() {
        #expect(throws: EraserKitError.scan(.invalidKey(16))) { try ScanStoreKey(bytes: Array(repeating: 1, count: 16)) }
    }

    @Test func cachedFacesRoundTripExactly() throws {
        let faces = CachedFaces(
            date: Date(timeIntervalSinceReferenceDate: 712_345_678.125), mediaType: .photo,
            descriptors: [[1, -0.5, .leastNonzeroMagnitude], [0, 3.25, -.greatestFiniteMagnitude]])
        let encoded = try faces.encoded()
        #expect(encoded.count == 14 + 2 * 3 * 4)
        #expect(Array(encoded.prefix(2)) == [1, 0])
        #expect(try CachedFaces(decoding: encoded) == faces)
        #expect(throws: EraserKitError.scan(.store("a cached descriptor row has the wrong size"))) {
            try CachedFaces(decoding: Array(encoded.dropLast()))
        }
    }
}
