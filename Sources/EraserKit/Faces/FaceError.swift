import Foundation

/// The face embedder's reasons for failing.
public enum FaceError: EraserErrorReason {
    /// The image could not be read or decoded.
    case unreadableImage(path: String, reason: String)
    /// The face models or the worker that runs them are not installed or not running.
    case unavailable(String)
    /// The worker died or answered nonsense on this image, also after one restart.
    case workerFailed(String)
    /// The worker took longer than its time limit on one image (it is stopped and restarted).
    case timedOut(path: String, seconds: Double)
    /// The embedder was shut down (`DlibWorkerFaceEmbedder.shutdown()`) before the request.
    case shutDown
    /// A reference photo shows no face, so it cannot say whom to look for.
    case noFaceInReference(path: String)
    /// A matcher was built without any reference descriptor.
    case noReferences
    /// Two descriptors of different lengths were compared (from different embedders).
    case descriptorMismatch(expected: Int, actual: Int)
    /// A match threshold that is not a positive, finite distance.
    case invalidThreshold(Double)

    public var code: String {
        switch self {
        case .unreadableImage: "unreadable_image"
        case .unavailable: "unavailable"
        case .workerFailed: "worker_failed"
        case .timedOut: "timed_out"
        case .shutDown: "shut_down"
        case .noFaceInReference: "no_face_in_reference"
        case .noReferences: "no_references"
        case .descriptorMismatch: "descriptor_mismatch"
        case .invalidThreshold: "invalid_threshold"
        }
    }

    public var message: String {
        switch self {
        case .unreadableImage(let path, let reason): "Could not read the image \(path): \(reason)."
        case .unavailable(let reason): "Face matching is unavailable: \(reason)."
        case .workerFailed(let reason): "The face worker failed: \(reason)."
        case .timedOut(let path, let seconds): "Finding faces in \(path) took longer than \(String(format: "%.1f", seconds)) s."
        case .shutDown: "The face embedder was shut down."
        case .noFaceInReference(let path): "The reference photo \(path) shows no face; choose one where the face is clearly visible."
        case .noReferences: "Choose at least one reference photo."
        case .descriptorMismatch(let expected, let actual):
            "A face descriptor has \(actual) numbers where \(expected) were expected."
        case .invalidThreshold(let value): "The match threshold \(value) must be a positive distance."
        }
    }
}
