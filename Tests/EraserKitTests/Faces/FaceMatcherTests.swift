import Foundation
import Testing
@testable import EraserKit

/// `FaceMatcher`: distances, the documented confidence mapping, the threshold, reference photos.
@Suite struct FaceMatcherTests {
    /// A 128-number descriptor with `values` first and zeros after.
    private func descriptor(_ values: Float...) -> [Float] {
        values + Array(repeating: 0, count: 128 - values.count)
    }

    private func face(_ width: Int, _ descriptor: [Float]) -> DetectedFace {
        DetectedFace(box: FaceBox(x: 0, y: 0, width: width, height: width), descriptor: descriptor)
    }

    @Test func distanceIsEuclidean() throws {
        #expect(try FaceMatcher.distance(descriptor(3, 0), descriptor(0, 4)) == 5)
        #expect(try FaceMatcher.distance(descriptor(1, 2, 3), descriptor(1, 2, 3)) == 0)
    }

    @Test func confidenceIsHalfAtTheThresholdAndFallsWithTheDistance() throws {
        let matcher = try FaceMatcher(references: [descriptor(0)])
        #expect(matcher.threshold == 0.6)
        #expect(matcher.confidence(forDistance: 0) == 1)
        #expect(matcher.confidence(forDistance: 0.6) == 0.5)
        #expect(abs(matcher.confidence(forDistance: 0.3) - 0.8) < 1e-12)
        #expect(abs(matcher.confidence(forDistance: 1.2) - 0.2) < 1e-12)
        #expect(matcher.confidence(forDistance: 5) < 0.02)
        // The scan engine's review ranks by the same formula.
        #expect(matcher.confidence(forDistance: 0.45) == FaceDistance.confidence(distance: 0.45, threshold: 0.6))
        #expect(matcher.confidence(forDistance: .nan) == 0)
        let distances = stride(from: 0.0, through: 1.2, by: 0.01).map { $0 }
        let confidences = distances.map(matcher.confidence(forDistance:))
        #expect(zip(confidences, confidences.dropFirst()).allSatisfy { $0 > $1 })
    }

    @Test func theThresholdIsAdjustableAndMovesTheHalfwayPoint() throws {
        let strict = try FaceMatcher(references: [descriptor(0)], threshold: 0.4)
        #expect(strict.confidence(forDistance: 0.4) == 0.5)
        let probe = face(10, descriptor(0.5))
        #expect(try strict.compare(probe).isMatch == false)
        let loose = try strict.withThreshold(0.6)
        let comparison = try loose.compare(probe)
        #expect(comparison == FaceMatch(box: probe.box, distance: 0.5, confidence: 1 / (1 + (0.5 / 0.6) * (0.5 / 0.6)), reference: 0, isMatch: true))
    }

    @Test func aFaceAtExactlyTheThresholdMatches() throws {
        let matcher = try FaceMatcher(references: [descriptor(0)], threshold: 0.5)
        #expect(try matcher.compare(face(1, descriptor(0.5))).isMatch)
        #expect(try matcher.compare(face(1, descriptor(0.5001))).isMatch == false)
    }

    @Test func theNearestReferenceCounts() throws {
        let matcher = try FaceMatcher(references: [descriptor(1), descriptor(0, 1), descriptor(0, 0, 1)])
        let nearest = try matcher.nearest(to: descriptor(0, 0.9))
        #expect(nearest.reference == 1)
        #expect(abs(nearest.distance - 0.1) < 1e-6)
    }

    @Test func bestMatchPicksTheClosestMatchingFaceOrNone() throws {
        let matcher = try FaceMatcher(references: [descriptor(0)])
        let far = face(50, descriptor(0.9))
        let near = face(20, descriptor(0.2))
        let nearer = face(10, descriptor(0.1))
        #expect(try matcher.bestMatch(in: [far, near, nearer])?.box == nearer.box)
        #expect(try matcher.bestMatch(in: [far]) == nil)
        #expect(try matcher.bestMatch(in: []) == nil)
    }

    @Test func badReferencesAndThresholdsAreTypedErrors() {
        #expect(throws: EraserKitError.faces(.noReferences)) { try FaceMatcher(references: []) }
        #expect(throws: EraserKitError.faces(.invalidThreshold(0))) { try FaceMatcher(references: [descriptor(0)], threshold: 0) }
        #expect(throws: EraserKitError.faces(.invalidThreshold(-1))) { try FaceMatcher(references: [descriptor(0)], threshold: -1) }
        #expect(throws: EraserKitError.faces(.descriptorMismatch(expected: 128, actual: 3))) {
            try FaceMatcher(references: [descriptor(0), [1, 2, 3]])
        }
        #expect(throws: EraserKitError.faces(.descriptorMismatch(expected: 128, actual: 2))) {
            try FaceMatcher(references: [descriptor(0)]).compare(face(1, [1, 2]))
        }
    }

    @Test func theLargestFaceOfAReferencePhotoIsUsed() {
        let small = face(10, descriptor(1))
        let large = face(30, descriptor(2))
        let alsoLarge = face(30, descriptor(3))
        #expect(FaceMatcher.largestFace(of: [small, large, alsoLarge]) == large)
        #expect(FaceMatcher.largestFace(of: []) == nil)
    }

    @Test func referencePhotosBuildTheMatcherAndOneWithoutAFaceIsRefused() async throws {
        let embedder = ScriptedEmbedder(faces: [
            "/refs/a.jpg": [face(10, descriptor(9)), face(40, descriptor(1))],
            "/refs/b.jpg": [face(20, descriptor(0, 1))],
            "/refs/empty.jpg": [],
        ])
        let matcher = try await FaceMatcher.fromReferencePhotos(
            [URL(fileURLWithPath: "/refs/a.jpg"), URL(fileURLWithPath: "/refs/b.jpg")], embedder: embedder, threshold: 0.5)
        #expect(matcher.references == [descriptor(1), descriptor(0, 1)])
        #expect(matcher.threshold == 0.5)
        await #expect(throws: EraserKitError.faces(.noFaceInReference(path: "/refs/empty.jpg"))) {
            try await FaceMatcher.fromReferencePhotos([URL(fileURLWithPath: "/refs/a.jpg"), URL(fileURLWithPath: "/refs/empty.jpg")], embedder: embedder)
        }
        await #expect(throws: EraserKitError.faces(.unreadableImage(path: "/refs/missing.jpg", reason: "not scripted"))) {
            try await FaceMatcher.fromReferencePhotos([URL(fileURLWithPath: "/refs/missing.jpg")], embedder: embedder)
        }
    }

    @Test func errorCodesAndMessages() {
        #expect(EraserKitError.faces(.noFaceInReference(path: "/a.jpg")).code == "faces.no_face_in_reference")
        #expect(EraserKitError.faces(.timedOut(path: "/a.jpg", seconds: 0.7)).message == "Finding faces in /a.jpg took longer than 0.7 s.")
        #expect(EraserKitError.faces(.descriptorMismatch(expected: 128, actual: 3)).code == "faces.descriptor_mismatch")
    }
}

/// A `FaceEmbedder` answering from a table; an image not in it is unreadable.
private struct ScriptedEmbedder: FaceEmbedder {
    let faces: [String: [DetectedFace]]

    func faces(in url: URL) async throws(EraserKitError) -> [DetectedFace] {
        guard let found = faces[url.path] else { throw .faces(.unreadableImage(path: url.path, reason: "not scripted")) }
        return found
    }
}
