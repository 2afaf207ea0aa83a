/// Face matching on descriptors: the Euclidean distance between two descriptors, the match
/// rule and the confidence shown in the Review Gallery (seed §3.1: "matches with confidence >
/// 0.6 threshold"; for dlib's 128-d descriptors 0.6 is a *distance*, the usual same-person cut).
///
/// - A face matches when its distance to the nearest reference is at most the threshold
///   (`d <= threshold`, the threshold itself included).
/// - Confidence is `1 / (1 + (d / threshold)²)`: 1 at distance 0, exactly 0.5 at the threshold,
///   strictly decreasing in `d`, towards 0 far away. So every match has a confidence ≥ 0.5, and a
///   new threshold (`ScanReview.rethreshold`) recomputes confidences as well as matches.
public enum FaceDistance {
    /// The default threshold: dlib's same-person distance.
    public static let defaultThreshold = 0.6

    /// The Euclidean distance, or `nil` when the descriptors are empty, differ in length or are
    /// not finite.
    public static func euclidean(_ a: [Float], _ b: [Float]) -> Double? {
        guard !a.isEmpty, a.count == b.count else { return nil }
        var sum = 0.0
        for index in a.indices {
            let delta = Double(a[index]) - Double(b[index])
            sum += delta * delta
        }
        let distance = sum.squareRoot()
        return distance.isFinite ? distance : nil
    }

    /// The smallest distance between any of `faces` and any of `references`, or `nil` when no
    /// pair can be compared.
    public static func nearest(_ faces: [[Float]], references: [[Float]]) -> Double? {
        var best: Double?
        for face in faces {
            for reference in references {
                guard let distance = euclidean(face, reference) else { continue }
                if best.map({ distance < $0 }) ?? true { best = distance }
            }
        }
        return best
    }

    /// Whether a distance is a match under `threshold` (inclusive).
    public static func isMatch(distance: Double, threshold: Double) -> Bool {
        distance <= threshold
    }

    /// The confidence of a distance under `threshold`: `1 / (1 + (d / threshold)²)`.
    public static func confidence(distance: Double, threshold: Double) -> Double {
        let ratio = distance / threshold
        return 1 / (1 + ratio * ratio)
    }

    /// Whether `threshold` can be used: positive and finite.
    public static func isValidThreshold(_ threshold: Double) -> Bool {
        threshold.isFinite && threshold > 0
    }
}
