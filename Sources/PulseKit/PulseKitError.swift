import KindredClient

/// What PulseKit can fail with (access checks themselves never throw: they fail closed).
public enum PulseKitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No account is signed in on this device.
    case notSignedIn
    /// The server or the session failed.
    case client(KindredClientError)
    /// The offline cache could not be written or removed.
    case cache(String)

    /// One line for people and logs.
    public var description: String {
        switch self {
        case .notSignedIn: "not signed in"
        case .client(let error): error.description
        case .cache(let reason): "access cache: \(reason)"
        }
    }

    /// A stable code for scripts (`not_signed_in`, the server's code, `transport`, `cache`).
    public var code: String {
        switch self {
        case .notSignedIn: "not_signed_in"
        case .client(let error):
            switch error {
            case .server(_, let code, _): code
            case .notSignedIn: "not_signed_in"
            case .sessionExpired: "session_expired"
            case .transport: "transport"
            case .invalidResponse: "invalid_response"
            case .storage: "storage"
            }
        case .cache: "cache"
        }
    }
}
