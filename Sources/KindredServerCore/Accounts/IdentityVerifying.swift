import Foundation

/// What a verified Apple or Google identity token says about its holder.
public struct IdentityClaims: Sendable, Equatable {
    /// The provider's stable, opaque user id (`sub`).
    public var subject: String
    /// The address in the token, if any (kept only when the app stores e-mail addresses).
    public var email: String?
    /// The token's `nonce` claim, if any (`IdentityTokenUse` checks it against the request's).
    public var nonce: String?
    /// When the token expires: until then a second use of it is refused (nil: a test double's
    /// token, not recorded).
    public var expiresAt: Date?

    /// Creates claims.
    public init(subject: String, email: String?, nonce: String? = nil, expiresAt: Date? = nil) {
        self.subject = subject
        self.email = email
        self.nonce = nonce
        self.expiresAt = expiresAt
    }
}

/// Verifies identity tokens for an app; the live implementation checks them against the app's JWKS.
public protocol IdentityVerifying: Sendable {
    /// Verifies `idToken` from `provider` (`.apple` or `.google`) for `app`.
    /// - Throws: `KindredError` 401 `invalid_identity_token` or 503 `identity_provider_unavailable`.
    func verify(provider: AppConfiguration.AuthProvider, idToken: String, app: AppConfiguration) async throws -> IdentityClaims
}

/// Refuses every identity token as unverifiable: for deployments that configure no keys.
public struct UnavailableIdentityVerifier: IdentityVerifying {
    /// Creates the verifier.
    public init() {}

    /// Always throws 503 `identity_provider_unavailable`.
    public func verify(provider: AppConfiguration.AuthProvider, idToken: String, app: AppConfiguration) async throws -> IdentityClaims {
        throw KindredError.identityProviderUnavailable
    }
}
