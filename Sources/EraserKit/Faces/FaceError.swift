/// The face embedder's reasons for failing.
public enum FaceError: EraserErrorReason {
    /// The image could not be read or decoded.
    case unreadableImage(path: String, reason: String)
    /// The face models or the worker that runs them are not installed or not running.
    case unavailable(String)

    public var code: String {
        switch self {
        case .unreadableImage: "unreadable_image"
        case .unavailable: "unavailable"
        }
    }

    public var message: String {
        switch self {
        case .unreadableImage(let path, let reason): "Could not read the image \(path): \(reason)."
        case .unavailable(let reason): "Face matching is unavailable: \(reason)."
        }
    }
}
