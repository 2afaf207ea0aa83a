/// One face compared with the references.
public struct FaceMatch: Sendable, Equatable {
    /// Where the face is.
    public var box: FaceBox
    /// The distance to the nearest reference descriptor.
    public var distance: Double
    /// `FaceMatcher.confidence(forDistance:)` of `distance`: 0.5 at the threshold, 1 for identical.
    public var confidence: Double
    /// The index of the nearest reference.
    public var reference: Int
    /// Whether `distance` is at most the threshold.
    public var isMatch: Bool
}
