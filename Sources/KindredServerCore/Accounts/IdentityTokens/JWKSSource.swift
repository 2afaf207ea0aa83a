import Foundation

/// Where an ``IdentityTokenVerifier`` gets the provider's signing keys (a JSON Web Key Set, RFC 7517).
public enum JWKSSource: Sendable, Hashable, CustomStringConvertible {
    /// A JWKS file on disk, read at first use and kept for the verifier's lifetime.
    case file(String)
    /// A JWKS endpoint, fetched with the verifier's HTTP client and cached as its
    /// `Cache-Control: max-age` says (see ``IdentityTokenVerifier``).
    case url(URL)
    /// A JWKS given inline (tests and configuration), parsed at first use.
    case json(String)

    /// Where the keys come from, for logs (an inline set is described by its size only).
    public var description: String {
        switch self {
        case .file(let path): "file \(path)"
        case .url(let url): url.absoluteString
        case .json(let json): "inline JWKS (\(json.utf8.count) bytes)"
        }
    }
}
