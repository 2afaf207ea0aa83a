import Foundation
import KindredClient
import KindredTestSupport
import Testing

@testable import EraserKit

/// A face scan through `EraserDevice` on a generated library of real faces (the face tests'
/// fixtures: scikit-image's astronaut as the ex, insightface's group photo and portrait, a cup and
/// a cat), with the real dlib worker: the ex's photos are found in the whole photo, mirrored, in
/// greyscale and EXIF-rotated (the references, a crop and a 60 % copy, show exactly one face each; the whole
/// photo shows a second, false face that the scan must not mind), the others are not, and vault → restore of a found photo is byte-identical.
@Suite(.enabled(if: FaceTestSupport.shouldRunDlib, "needs \(FaceTestSupport.installHint)"))
struct EraserDeviceFaceScanTests {
    static let ex = ["astronaut.png", "astronaut_flip.png", "astronaut_gray.png", "astronaut_exif6.jpg"]
    static let others = ["group.jpg", "hanks.png", "coffee.png", "chelsea.png"]

    @Test func theExsPhotosAreFoundAndNoOthers() async throws {
        let fixtures = try FaceTestSupport.fixtures()
        let library = try LibraryFixture()
        for name in Self.ex + Self.others {
            _ = try library.write("camera/\(name)", try fixtures.read(name))
        }
        let profile = try TemporaryDirectory()
        let device = try EraserDevice.setUp(profileDirectory: profile.url, secureStore: InMemorySecureStore())
        let summary = try await device.scan(ScanRequest(
            photos: library.root,
            references: [fixtures.url.appendingPathComponent("astronaut_crop.jpg"), fixtures.url.appendingPathComponent("astronaut_small.jpg")],
            timeZone: TimeZone(identifier: "UTC")!, batchSize: 3))
        #expect(summary.resultCount == Self.ex.count)
        #expect(summary.byCategory == [.face: Self.ex.count])

        let results = try device.review().results()
        let places = try device.places(of: results.map(\.item))
        #expect(Set(results.compactMap { places[$0.item]?.path }) == Set(Self.ex.map { "camera/\($0)" }))
        #expect(results.allSatisfy { $0.categories == [.face] && ($0.faceDistance ?? 1) <= FaceDistance.defaultThreshold })
        #expect(results.map(\.confidence) == results.map(\.confidence).sorted(by: >))
        #expect(try device.history().first?.totalMatched == Self.ex.count)

        // A stricter threshold after the scan, without the worker: exactly the closer ones stay.
        let strict = try device.review().rethreshold(0.35)
        #expect(strict.resultCount == results.filter { ($0.faceDistance ?? 1) <= 0.35 }.count)
        #expect(try device.review().results().allSatisfy { ($0.faceDistance ?? 1) <= 0.35 })

        let found = try #require(results.first { places[$0.item]?.path == "camera/astronaut_flip.png" })
        let original = try library.read("camera/astronaut_flip.png")
        try device.review().rethreshold(FaceDistance.defaultThreshold)
        try device.decide(found.item.key, .vault)
        let item = try #require(try device.apply().entries.first).vaultItemID
        #expect(!library.exists("camera/astronaut_flip.png"))
        #expect(try device.vault.item(item).matchType == .face)
        try device.restore(item)
        #expect(try library.read("camera/astronaut_flip.png") == original)
    }
}
