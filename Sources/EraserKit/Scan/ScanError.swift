/// The scan engine's reasons for failing.
public enum ScanError: EraserErrorReason {
    /// The scan's settings cannot work (the reason says which).
    case invalidConfiguration(String)
    /// The scan was cancelled; it can be resumed.
    case cancelled

    public var code: String {
        switch self {
        case .invalidConfiguration: "invalid_configuration"
        case .cancelled: "cancelled"
        }
    }

    public var message: String {
        switch self {
        case .invalidConfiguration(let reason): "The scan cannot start: \(reason)."
        case .cancelled: "The scan was cancelled; it can be resumed where it stopped."
        }
    }
}
