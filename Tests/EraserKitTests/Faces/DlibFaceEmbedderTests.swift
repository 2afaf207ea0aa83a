#if os(Linux)
import Foundation
import Glibc
import KindredTestSupport
import Testing
@testable import EraserKit

/// The real worker (dlib-bin, face_recognition_models) on real photos from PyPI packages
/// (scikit-image's astronaut, cat and coffee; insightface's group photo and portrait), built by
/// `face_fixtures.py`: one person is found again across crops, flips, scales, grayscale and EXIF
/// rotation, other people are not, images without faces give none, bad files are typed errors.
@Suite(.enabled(if: FaceTestSupport.shouldRunDlib,
                "dlib, face_recognition_models, scikit-image or insightface missing (set CI=true to make this a failure)"))
struct DlibFaceEmbedderTests {
    /// The fixture photos, built once per test process.
    static let photos: Result<URL, FaceTestSupport.Failure> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-face-fixtures-\(getpid())")
        removeStaleFixtureFolders()
        do {
            let result = try ChildProcess.run("/usr/bin/env", ["python3", FaceTestSupport.fixtureGenerator.path, folder.path])
            guard result.status == 0, result.text.contains("\"ok\": true") else {
                return .failure(.init(description: "face_fixtures.py: \(result.text) \(result.stderr) (\(FaceTestSupport.installHint))"))
            }
            return .success(folder)
        } catch {
            return .failure(.init(description: "face_fixtures.py could not run: \(error)"))
        }
    }()

    /// One embedder for the whole suite (the worker loads its models once).
    static let embedder = DlibWorkerFaceEmbedder(configuration: .init(workers: 2))

    /// Folders left by earlier test processes that have ended.
    private static func removeStaleFixtureFolders() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("kindred-face-fixtures-") {
            guard let pid = Int32(name.dropFirst("kindred-face-fixtures-".count)), kill(pid, 0) == -1, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    private func photo(_ name: String) throws -> URL {
        try Self.photos.get().appendingPathComponent(name)
    }

    private func faces(_ name: String) async throws -> [DetectedFace] {
        try await Self.embedder.faces(in: photo(name))
    }

    /// A matcher whose only reference is the astronaut photo's largest face.
    private func astronautMatcher() async throws -> FaceMatcher {
        try await FaceMatcher.fromReferencePhotos([photo("astronaut.png")], embedder: Self.embedder)
    }

    @Test func findsTheAstronautsFaceWhereItIs() async throws {
        let faces = try await faces("astronaut.png")
        let face = try #require(FaceMatcher.largestFace(of: faces))
        #expect(face.box == FaceBox(x: 175, y: 76, width: 91, height: 91))
        #expect(face.descriptor.count == 128)
        let norm = face.descriptor.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
        #expect(norm > 0.1 && norm < 2)
    }

    @Test(arguments: ["astronaut_crop.jpg", "astronaut_flip.png", "astronaut_small.jpg", "astronaut_large.jpg",
                      "astronaut_gray.png", "astronaut_exif6.jpg"])
    func theAstronautIsMatchedAcrossChanges(_ name: String) async throws {
        let matcher = try await astronautMatcher()
        let match = try #require(try matcher.bestMatch(in: await faces(name)), "no face in \(name) matched")
        #expect(match.distance < 0.6)
        #expect(match.confidence > 0.5)
    }

    @Test func boxesAreInTheUprightFullSizeImage() async throws {
        let upright = try #require(FaceMatcher.largestFace(of: try await faces("astronaut_exif6.jpg")))
        #expect(upright.box == FaceBox(x: 175, y: 76, width: 91, height: 91))
        // 1536 px is decoded at 1280 and scanned at 1024; the box comes back at 3× the original.
        let large = try #require(FaceMatcher.largestFace(of: try await faces("astronaut_large.jpg")))
        #expect(abs(large.box.x - 3 * 175) <= 6 && abs(large.box.y - 3 * 76) <= 6)
        #expect(abs(large.box.width - 3 * 91) <= 6)
    }

    @Test func otherPeopleAreNotMatched() async throws {
        let matcher = try await astronautMatcher()
        let group = try await faces("group.jpg")
        #expect(group.count == 6)
        #expect(try matcher.bestMatch(in: group) == nil)
        for face in group { #expect(try matcher.compare(face).distance > 0.6) }
        let hanks = try await faces("hanks.png")
        #expect(hanks.count == 1)
        #expect(try matcher.bestMatch(in: hanks) == nil)
        // And the other way round: none of the six is Tom Hanks.
        let hanksMatcher = try FaceMatcher(references: hanks.map(\.descriptor))
        #expect(try hanksMatcher.bestMatch(in: group) == nil)
    }

    @Test(arguments: ["coffee.png", "chelsea.png"])
    func anImageWithoutAFaceGivesNone(_ name: String) async throws {
        #expect(try await faces(name) == [])
    }

    @Test func aReferencePhotoWithoutAFaceIsRefused() async throws {
        let coffee = try photo("coffee.png")
        await #expect(throws: EraserKitError.faces(.noFaceInReference(path: coffee.path))) {
            try await FaceMatcher.fromReferencePhotos([coffee], embedder: Self.embedder)
        }
    }

    @Test(arguments: ["not_an_image.jpg", "truncated.jpg", "empty.png", "missing.jpg", ""])
    func anUnreadableFileIsATypedErrorAndTheWorkerKeepsAnswering(_ name: String) async throws {
        let url = try photo(name)
        let error = await FaceTestSupport.error { () async throws(EraserKitError) in try await Self.embedder.faces(in: url) }
        guard case .faces(.unreadableImage(let path, let reason)) = error else {
            Issue.record("expected unreadable_image, got \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(!reason.isEmpty)
        #expect(try await faces("hanks.png").count == 1)
    }

    @Test func theWorkerAnswersBadRequestsAndKeepsServing() throws {
        let astronaut = try photo("astronaut.png").path
        let lines = [
            "not json",
            #"{"id": 1, "path": "\#(astronaut)", "upsample": 9}"#,
            #"{"id": 2}"#,
            #"{"id": 3, "path": "\#(astronaut)", "upsample": 0}"#,
        ]
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/EraserKit/Faces/Worker/face_worker.py")
        let result = try ChildProcess.run("/usr/bin/env", ["python3", script.path],
                                          input: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0)
        let answers = result.text.split(separator: "\n").map(String.init)
        try #require(answers.count == 5)
        #expect(answers[0].hasPrefix(#"{"ready":true,"dlib":""#))
        #expect(answers[1].hasPrefix(#"{"id":null,"error":{"code":"bad_request","message":"not JSON"#))
        #expect(answers[2] == #"{"id":1,"error":{"code":"bad_request","message":"`upsample` must be an integer from 0 to 3"}}"#)
        #expect(answers[3] == #"{"id":2,"error":{"code":"bad_request","message":"`path` must be a non-empty string"}}"#)
        let faces = try FaceWorkerMessages.faces(from: Data(answers[4].utf8), path: astronaut)
        #expect(faces.map(\.box) == [FaceBox(x: 179, y: 83, width: 88, height: 88)])
    }
}
#endif
