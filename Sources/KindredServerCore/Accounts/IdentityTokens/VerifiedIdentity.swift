import Foundation

/// The claims of an identity token that passed every check of ``IdentityTokenVerifier``.
public struct VerifiedIdentity: Sendable, Hashable {
    /// The provider that issued the token.
    public var provider: IdentityProvider
    /// The provider's stable user id (`sub`): non-empty, at most 255 UTF-8 bytes.
    public var subject: String
    /// The user's e-mail address (`email`), when the token carries one.
    public var email: String?
    /// Whether the provider verified the e-mail address (`email_verified`, a boolean or
    /// the string `"true"`/`"false"`), when the token says.
    public var emailVerified: Bool?
    /// Whether the address is an Apple private relay address (Apple's `is_private_email`),
    /// when the token says; Google never does.
    public var isPrivateRelayEmail: Bool?
    /// When the token was issued (`iat`).
    public var issuedAt: Date
    /// When the token expires (`exp`).
    public var expiresAt: Date
    /// The token's `nonce` claim, when it has one.
    public var nonce: String?

    /// Creates an identity from its parts (the verifier's result; also for test doubles).
    public init(
        provider: IdentityProvider, subject: String, email: String?, emailVerified: Bool?,
        isPrivateRelayEmail: Bool?, issuedAt: Date, expiresAt: Date, nonce: String? = nil
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateRelayEmail = isPrivateRelayEmail
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.nonce = nonce
    }
}
