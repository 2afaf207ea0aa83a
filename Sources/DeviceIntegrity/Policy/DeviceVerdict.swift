/// What the server knows about a device's integrity for one request.
public enum DeviceVerdict: Sendable, Hashable {
    /// A verified attestation, assertion or verdict token.
    case passed
    /// Verification failed; `reason` is the error's one-line description.
    case failed(reason: String)
    /// No verdict is recorded for the device.
    case missing

    /// The stored name: `passed`, `failed` or `missing`.
    public var name: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .missing: "missing"
        }
    }
}
