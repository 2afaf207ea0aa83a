import Foundation

/// Decides whether a face is the person of the reference photos, and how sure that is.
///
/// The distance of a face is the Euclidean distance from its descriptor to the nearest reference
/// descriptor. A face matches when that distance is at most `threshold` (default 0.6, dlib's
/// documented same-person threshold for its ResNet descriptor, and the seed's match threshold).
///
/// Confidence is a fixed, strictly decreasing function of the distance `d` alone, so sorting by
/// confidence is sorting by distance and never changes between runs:
///
///     confidence = 1 / (1 + (d / threshold)²)
///
/// (`FaceDistance.confidence`, the one formula the scan engine and its review use too). `d = 0`
/// gives 1, `d = threshold` gives exactly 0.5 (so a match is confidence ≥ 0.5), and it keeps
/// falling towards 0 beyond. With the default threshold, a typical same-person distance of
/// 0.3–0.5 reads 0.80–0.59, and strangers (0.7–1.0) read 0.42–0.26.
///
/// A reference photo contributes its largest face (by box area; a reference photo is normally a
/// portrait, and background faces are smaller); one without a face is refused
/// (`FaceError.noFaceInReference`).
public struct FaceMatcher: Sendable, Equatable {
    /// dlib's same-person distance, and the default threshold.
    public static let defaultThreshold = 0.6

    /// The reference descriptors (one per reference photo).
    public let references: [[Float]]
    /// The largest distance that still counts as a match.
    public let threshold: Double

    /// A matcher for `references` (at least one; all of one length).
    /// - Throws: `FaceError.noReferences`, `FaceError.descriptorMismatch`, or
    ///   `FaceError.invalidThreshold` for a threshold that is not positive and finite.
    public init(references: [[Float]], threshold: Double = FaceMatcher.defaultThreshold) throws(EraserKitError) {
        guard let first = references.first else { throw .faces(.noReferences) }
        guard threshold.isFinite, threshold > 0 else { throw .faces(.invalidThreshold(threshold)) }
        for reference in references where reference.count != first.count || reference.isEmpty {
            throw .faces(.descriptorMismatch(expected: first.count, actual: reference.count))
        }
        self.references = references
        self.threshold = threshold
    }

    /// A matcher from reference photos: each photo's largest face, described by `embedder`.
    /// - Throws: `FaceError.noFaceInReference` for a photo without a face, the embedder's errors,
    ///   and the errors of `init(references:threshold:)`.
    public static func fromReferencePhotos(_ photos: [URL], embedder: any FaceEmbedder,
                                           threshold: Double = FaceMatcher.defaultThreshold) async throws(EraserKitError) -> FaceMatcher {
        var references: [[Float]] = []
        for photo in photos {
            let faces = try await embedder.faces(in: photo)
            guard let face = largestFace(of: faces) else { throw .faces(.noFaceInReference(path: photo.path)) }
            references.append(face.descriptor)
        }
        return try FaceMatcher(references: references, threshold: threshold)
    }

    /// The face with the largest box (the first of equals), or `nil` when there is none.
    public static func largestFace(of faces: [DetectedFace]) -> DetectedFace? {
        var best: DetectedFace?
        for face in faces where best.map({ face.box.width * face.box.height > $0.box.width * $0.box.height }) ?? true {
            best = face
        }
        return best
    }

    /// This matcher with another threshold.
    /// - Throws: `FaceError.invalidThreshold`.
    public func withThreshold(_ threshold: Double) throws(EraserKitError) -> FaceMatcher {
        try FaceMatcher(references: references, threshold: threshold)
    }

    /// The distance from `descriptor` to the nearest reference, and that reference's index.
    /// - Throws: `FaceError.descriptorMismatch` when the lengths differ.
    public func nearest(to descriptor: [Float]) throws(EraserKitError) -> (distance: Double, reference: Int) {
        var best = (distance: Double.infinity, reference: 0)
        for (index, reference) in references.enumerated() {
            let distance = try Self.distance(reference, descriptor)
            if distance < best.distance { best = (distance, index) }
        }
        return best
    }

    /// The Euclidean distance between two descriptors (summed in `Double`).
    /// - Throws: `FaceError.descriptorMismatch` when the lengths differ.
    public static func distance(_ a: [Float], _ b: [Float]) throws(EraserKitError) -> Double {
        guard a.count == b.count else { throw .faces(.descriptorMismatch(expected: a.count, actual: b.count)) }
        var sum = 0.0
        for index in a.indices {
            let difference = Double(a[index]) - Double(b[index])
            sum += difference * difference
        }
        return sum.squareRoot()
    }

    /// The confidence for `distance`: `1 / (1 + (distance / threshold)²)` (`FaceDistance.confidence`).
    public func confidence(forDistance distance: Double) -> Double {
        guard !distance.isNaN else { return 0 }
        return FaceDistance.confidence(distance: distance, threshold: threshold)
    }

    /// How `face` compares with the references, matching or not.
    /// - Throws: `FaceError.descriptorMismatch`.
    public func compare(_ face: DetectedFace) throws(EraserKitError) -> FaceMatch {
        let (distance, reference) = try nearest(to: face.descriptor)
        return FaceMatch(box: face.box, distance: distance, confidence: confidence(forDistance: distance),
                         reference: reference, isMatch: distance <= threshold)
    }

    /// The closest matching face among `faces` (an image's), or `nil` when none matches.
    /// - Throws: `FaceError.descriptorMismatch`.
    public func bestMatch(in faces: [DetectedFace]) throws(EraserKitError) -> FaceMatch? {
        var best: FaceMatch?
        for face in faces {
            let match = try compare(face)
            if match.isMatch, match.distance < best?.distance ?? .infinity { best = match }
        }
        return best
    }
}
