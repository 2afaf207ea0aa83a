import AsyncHTTPClient
import Foundation
import JWTKit
import KindredStore
import Logging

/// Verifies Sign in with Apple and Google identity tokens (OpenID Connect ID tokens).
///
/// One verifier per provider and key source; share it between requests (it caches the key
/// set). A token is accepted when, in this order:
/// 1. it is a compact JWS of at most ``maximumTokenLength`` characters whose header and
///    payload are base64url JSON (else ``IdentityTokenError/malformed``);
/// 2. its header's `alg` is `RS256` (`none`, `HS*`, `ES*`, `PS*` … are refused) and it has a
///    `kid` and no `crit`;
/// 3. the `kid` names a key of the provider's JWKS (see ``JWKSSource`` and the caching rules
///    below) and the signature verifies with it (jwt-kit);
/// 4. `iss` is one of ``IdentityProvider/issuers``; `aud` (a string or an array) names one of
///    the accepted audiences;
/// 5. by the injected clock, `exp` is not more than ``clockLeeway`` in the past and `iat` not
///    more than ``clockLeeway`` in the future (`nbf` is not used by either provider and is
///    ignored);
/// 6. `sub` is non-empty and at most ``maximumSubjectLength`` UTF-8 bytes.
///
/// Key sets from ``JWKSSource/file(_:)`` and ``JWKSSource/json(_:)`` are loaded at first use
/// and kept. A ``JWKSSource/url(_:)`` set is cached for its `Cache-Control: max-age`
/// (``defaultCacheLifetime`` without one, at least ``minimumRefetchInterval``, at most
/// ``maximumCacheLifetime``). A token naming an unknown `kid` (the provider rotated its keys)
/// triggers a refetch, at most once per ``minimumRefetchInterval``. When a fetch fails the
/// cached set stays in use (retried at most once per ``minimumRefetchInterval``); with nothing
/// cached the token is refused with ``IdentityTokenError/jwksUnavailable(_:)``.
/// Concurrent requests that need a fetch share one.
public actor IdentityTokenVerifier {
    /// The longest token accepted, in characters (UTF-8 bytes).
    public static let maximumTokenLength = 8192
    /// How far `exp` may be past and `iat` ahead of the clock: 60 seconds of clock skew.
    public static let clockLeeway: TimeInterval = 60
    /// The longest `sub` accepted, in UTF-8 bytes.
    public static let maximumSubjectLength = 255
    /// The only signature algorithm accepted.
    public static let algorithm = "RS256"

    /// The provider whose tokens this verifier accepts.
    public nonisolated let provider: IdentityProvider
    /// Where the provider's keys come from.
    public nonisolated let source: JWKSSource

    let clock: any WallClock
    let logger: Logger
    let httpClient: HTTPClient?

    /// The loaded key set, when there is one, and until when it is fresh.
    var cached: (keys: IdentityKeySet, freshUntil: Date)?
    /// When the key set was last fetched or a fetch was last tried.
    var lastFetchAttempt: Date?
    /// The fetch under way, which concurrent callers join.
    var fetchInFlight: Task<IdentityTokenError?, Never>?

    /// Creates a verifier for `provider`'s tokens with keys from `jwks`.
    ///
    /// - Parameters:
    ///   - provider: Whose tokens to accept (fixes the accepted issuers).
    ///   - jwks: Where the signing keys come from; usually `provider.defaultJWKS`.
    ///   - clock: The time `exp` and `iat` are checked against, and that drives key caching.
    ///   - logger: Where key-set loads and failures are reported (never tokens).
    ///   - httpClient: The client that fetches a ``JWKSSource/url(_:)`` set; owned and shut
    ///     down by the caller. Without one, a URL source fails every verification with
    ///     ``IdentityTokenError/jwksUnavailable(_:)``.
    public init(
        provider: IdentityProvider, jwks: JWKSSource, clock: any WallClock, logger: Logger,
        httpClient: HTTPClient? = nil
    ) {
        self.provider = provider
        self.source = jwks
        self.clock = clock
        self.httpClient = httpClient
        var logger = logger
        logger[metadataKey: "identity_provider"] = "\(provider.rawValue)"
        self.logger = logger
        if case .url(let url) = jwks, httpClient == nil {
            logger.error("an identity token verifier has a JWKS URL but no HTTP client", metadata: ["url": "\(url)"])
        }
    }

    /// Verifies `idToken` and returns the identity it proves.
    ///
    /// - Parameters:
    ///   - idToken: The compact JWS the app got from the provider.
    ///   - audiences: The accepted `aud` values (the app's bundle/services ids or OAuth client
    ///     ids); empty refuses every token.
    /// - Returns: The verified subject and e-mail claims.
    /// - Throws: The first check that fails, as an ``IdentityTokenError``.
    public func verify(_ idToken: String, audiences: [String]) async throws(IdentityTokenError) -> VerifiedIdentity {
        guard !audiences.isEmpty else { throw .wrongAudience }
        let token = try Self.parse(idToken)
        let keys = try await keys(containing: token.kid)
        try await keys.verifySignature(of: idToken, kid: token.kid)
        return try check(token.claims, audiences: audiences)
    }

    /// The claims checks, after the signature verified.
    private func check(_ claims: IdentityTokenClaims, audiences: [String]) throws(IdentityTokenError) -> VerifiedIdentity {
        guard let issuer = claims.issuer, provider.issuers.contains(issuer) else { throw .wrongIssuer }
        guard let tokenAudiences = claims.audiences, !Set(tokenAudiences).isDisjoint(with: audiences) else {
            throw .wrongAudience
        }
        guard let expiresAt = claims.expiresAt, let issuedAt = claims.issuedAt else { throw .malformed }
        let now = clock.now().timeIntervalSince1970
        guard now < expiresAt + Self.clockLeeway else { throw .expired }
        guard issuedAt <= now + Self.clockLeeway else { throw .issuedInFuture }
        guard let subject = claims.subject, !subject.isEmpty, subject.utf8.count <= Self.maximumSubjectLength else {
            throw .missingSubject
        }
        return VerifiedIdentity(
            provider: provider, subject: subject, email: claims.email, emailVerified: claims.emailVerified,
            isPrivateRelayEmail: claims.isPrivateEmail,
            issuedAt: Date(timeIntervalSince1970: issuedAt), expiresAt: Date(timeIntervalSince1970: expiresAt),
            nonce: claims.nonce
        )
    }
}
