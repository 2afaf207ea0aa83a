/// Why an identity token was refused, or why the provider's keys could not be used.
///
/// ``message`` is safe to show a client: it never contains the token, a key, a file path or
/// an upstream error. ``description`` adds the server-side detail for logs. The two
/// key-set cases (``jwksUnavailable(_:)``, ``invalidJWKS(_:)``) are the server's problem,
/// not the caller's; ``isKeySetFailure`` tells them apart.
public enum IdentityTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a compact JWS of at most 8192 characters with base64url JSON header and payload,
    /// or a required claim (`exp`, `iat`) or header field (`kid`) is missing or mistyped.
    case malformed
    /// The header's `alg` is not `RS256` (`none`, `HS256`, `ES256`, …); holds the
    /// algorithm name, shortened and stripped to `[A-Za-z0-9_-]`.
    case unsupportedAlgorithm(String)
    /// The header's `kid` names no key of the provider's key set, even after a refetch.
    case unknownKey
    /// The signature does not verify with the key the header names.
    case badSignature
    /// `iss` is missing or not one of the provider's issuers.
    case wrongIssuer
    /// `aud` is missing, names none of the accepted audiences, or no audience is accepted.
    case wrongAudience
    /// `exp` is past, by more than the verifier's leeway.
    case expired
    /// `iat` is further in the future than the verifier's leeway.
    case issuedInFuture
    /// `sub` is missing, empty or longer than 255 UTF-8 bytes.
    case missingSubject
    /// The provider's key set could not be loaded (unreadable file, unreachable endpoint,
    /// non-200 answer) and no earlier copy is cached; holds the detail for logs.
    case jwksUnavailable(String)
    /// The key set was loaded but holds no usable RS256 key or is not a JWKS; holds the
    /// detail for logs.
    case invalidJWKS(String)

    /// Whether the failure is the server's key set rather than the token (a 503, not a 401).
    public var isKeySetFailure: Bool {
        switch self {
        case .jwksUnavailable, .invalidJWKS: true
        default: false
        }
    }

    /// A one-sentence explanation that is safe to send to the client.
    public var message: String {
        switch self {
        case .malformed: "the identity token is not a well-formed JWT"
        case .unsupportedAlgorithm(let alg): "the identity token algorithm \"\(alg)\" is not accepted (RS256 only)"
        case .unknownKey: "the identity token is signed with a key the provider does not publish"
        case .badSignature: "the identity token signature is invalid"
        case .wrongIssuer: "the identity token was not issued by the expected provider"
        case .wrongAudience: "the identity token was not issued for this app"
        case .expired: "the identity token has expired"
        case .issuedInFuture: "the identity token was issued in the future"
        case .missingSubject: "the identity token has no valid subject"
        case .jwksUnavailable: "the identity provider's signing keys are unavailable; try again later"
        case .invalidJWKS: "the identity provider's signing keys are unusable; try again later"
        }
    }

    /// The message with the server-side detail of the key-set cases, for logs.
    public var description: String {
        switch self {
        case .jwksUnavailable(let detail), .invalidJWKS(let detail): "\(message) (\(detail))"
        default: message
        }
    }
}
