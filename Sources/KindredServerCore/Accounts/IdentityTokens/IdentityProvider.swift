import Foundation

/// An OpenID Connect provider whose identity tokens the server accepts for sign-in.
public enum IdentityProvider: String, Sendable, Hashable, CaseIterable {
    /// Sign in with Apple.
    case apple
    /// Google Sign-In.
    case google

    /// The `iss` values the provider's identity tokens carry.
    ///
    /// Google documents both spellings of its issuer; Apple has one.
    public var issuers: Set<String> {
        switch self {
        case .apple: ["https://appleid.apple.com"]
        case .google: ["https://accounts.google.com", "accounts.google.com"]
        }
    }

    /// The provider's published JSON Web Key Set.
    public var defaultJWKSURL: URL {
        // Both are literals that always parse, so the fallback is unreachable.
        switch self {
        case .apple: URL(string: "https://appleid.apple.com/auth/keys") ?? URL(fileURLWithPath: "/")
        case .google: URL(string: "https://www.googleapis.com/oauth2/v3/certs") ?? URL(fileURLWithPath: "/")
        }
    }

    /// The provider's published key set as a JWKS source.
    public var defaultJWKS: JWKSSource { .url(defaultJWKSURL) }
}
