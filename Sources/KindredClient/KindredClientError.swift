/// Every failure of KindredClient: the session, its storage, and the server's answers.
///
/// Server answers keep the stable `code` of the error envelope (`{"error":{"code","message"}}`),
/// so callers branch on `code`, never on `message`.
public enum KindredClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No session is stored: sign up or log in first.
    case notSignedIn
    /// The server answered with an error envelope (or an unexpected status).
    /// - `status`: the HTTP status; `code`: the envelope's stable code; `message`: its text.
    case server(status: Int, code: String, message: String)
    /// The request did not reach the server, or its answer did not arrive (connection refused,
    /// timeout, TLS failure, …).
    case transport(String)
    /// The refresh token was refused (`invalid_refresh_token` or `refresh_token_reused`): the
    /// session is over and has been removed from the store; sign in again.
    case sessionExpired
    /// The server's answer could not be understood (not the contract's shape).
    case invalidResponse(String)
    /// The token store could not read, write or remove the stored session.
    case storage(String)

    /// One line for people and logs; never contains a token.
    public var description: String {
        switch self {
        case .notSignedIn: "not signed in"
        case .server(let status, let code, let message): "\(code) (HTTP \(status)): \(message)"
        case .transport(let reason): "cannot reach the server: \(reason)"
        case .sessionExpired: "the session has expired or was revoked; sign in again"
        case .invalidResponse(let reason): "unexpected answer from the server: \(reason)"
        case .storage(let reason): "session storage: \(reason)"
        }
    }

    /// The server's error code, when this is a server error.
    public var serverCode: String? {
        if case .server(_, let code, _) = self { return code }
        return nil
    }
}
