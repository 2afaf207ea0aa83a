@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Crypto
import Foundation
import KindredStore
import KindredTestSupport
import Logging
import Synchronization
import _CryptoExtras

/// A stand-in for Apple's or Google's sign-in service: a fresh RSA-2048 key with a `kid`, its
/// JWKS, and identity tokens signed with it.
///
/// Defaults match `TestClock()` and the development app registry, so the shortest use is:
///
///     let issuer = try TestIdentityIssuer.shared(provider: .apple)
///     let verifier = issuer.verifier(clock: TestClock())
///     let identity = try await verifier.verify(try issuer.token(), audiences: [issuer.defaultAudience])
///
/// Tokens are issued at ``defaultIssuedAt`` (`TestClock()`'s start) for ``defaultLifetime``, to
/// the closer app's development audience, with `email` and `email_verified: true`.
struct TestIdentityIssuer: Sendable {
    /// When tokens are issued unless told: 2026-01-01T00:00:00Z, the start of `TestClock()`.
    static let defaultIssuedAt = Date(timeIntervalSince1970: 1_767_225_600)
    /// How long tokens are valid unless told: 10 minutes.
    static let defaultLifetime: TimeInterval = 600
    /// The subject of tokens unless told (Apple-shaped).
    static let defaultSubject = "001234.0123456789abcdef0123456789abcdef.1234"
    /// The e-mail of tokens unless told.
    static let defaultEmail = "someone@example.com"

    /// The provider this issuer imitates (its default `iss`).
    let provider: IdentityProvider
    /// The `kid` of the key, in the JWKS and in token headers.
    let kid: String
    /// The public key as a JWK, as Apple and Google publish theirs.
    let publicJWK: [String: TestClaim]
    private let key: _RSA.Signing.PrivateKey

    /// Generates a fresh RSA-2048 key named `kid`.
    init(provider: IdentityProvider = .apple, kid: String = "test-key-1") throws {
        self.provider = provider
        self.kid = kid
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try key.publicKey.getKeyPrimitives()
        publicJWK = [
            "kty": "RSA", "kid": .string(kid), "use": "sig", "alg": "RS256",
            "n": .string(Self.base64URL(primitives.modulus)), "e": .string(Self.base64URL(primitives.publicExponent)),
        ]
    }

    /// The issuer for `provider` and `kid` shared by the whole test run, generated on first use.
    ///
    /// RSA key generation takes a noticeable fraction of a second in debug builds; tests that
    /// only need *a* key share these. Use `init` for a key no other test knows.
    static func shared(provider: IdentityProvider = .apple, kid: String = "test-key-1") throws -> TestIdentityIssuer {
        try sharedIssuers.withLock { issuers in
            let name = "\(provider.rawValue)/\(kid)"
            if let issuer = issuers[name] { return issuer }
            let issuer = try TestIdentityIssuer(provider: provider, kid: kid)
            issuers[name] = issuer
            return issuer
        }
    }

    private static let sharedIssuers = Mutex<[String: TestIdentityIssuer]>([:])

    /// Another issuer with the same provider and `kid` but a different key: its tokens have
    /// a bad signature for this issuer's JWKS.
    func impostor() throws -> TestIdentityIssuer {
        try TestIdentityIssuer(provider: provider, kid: kid)
    }

    // MARK: - Keys

    /// The provider's first issuer: `https://appleid.apple.com` or `https://accounts.google.com`.
    var defaultIssuer: String {
        switch provider {
        case .apple: "https://appleid.apple.com"
        case .google: "https://accounts.google.com"
        }
    }

    /// The closer app's development audience for the provider (`AppConfiguration.developmentDefault`).
    var defaultAudience: String {
        switch provider {
        case .apple: "dev.kindred.closer"
        case .google: "dev.kindred.closer.apps.googleusercontent.com"
        }
    }

    /// A JWKS with this issuer's key only.
    var jwksJSON: String { Self.jwksJSON(of: [self]) }

    /// A JWKS with the keys of several issuers (a provider mid-rotation).
    static func jwksJSON(of issuers: [TestIdentityIssuer]) -> String {
        json(["keys": .array(issuers.map { .object($0.publicJWK) })])
    }

    /// Writes ``jwksJSON`` to `name` in `directory` and returns its path, for `.file(path)`.
    func writeJWKS(in directory: TemporaryDirectory, name: String = "jwks.json") throws -> String {
        try directory.file(name, Array(jwksJSON.utf8))
    }

    /// A verifier for this issuer's provider with ``jwksJSON`` inline.
    func verifier(clock: any WallClock = TestClock(), logger: Logger = .quietForIdentityTests) -> IdentityTokenVerifier {
        IdentityTokenVerifier(provider: provider, jwks: .json(jwksJSON), clock: clock, logger: logger)
    }

    // MARK: - Tokens

    /// The claims of a token. `audience` and `issuer` default to ``defaultAudience`` and
    /// ``defaultIssuer``, `expiresAt` to `issuedAt +` ``defaultLifetime``; a nil `email` or
    /// `emailVerified` leaves the claim out; `extraClaims` are added last (and win).
    func claims(
        subject: String = defaultSubject, audience: TestClaim? = nil, issuer: String? = nil,
        issuedAt: Date = defaultIssuedAt, expiresAt: Date? = nil,
        email: String? = defaultEmail, emailVerified: TestClaim? = true,
        extraClaims: [String: TestClaim] = [:]
    ) -> [String: TestClaim] {
        var claims: [String: TestClaim] = [
            "iss": .string(issuer ?? defaultIssuer), "sub": .string(subject),
            "aud": audience ?? .string(defaultAudience),
            "iat": .seconds(issuedAt), "exp": .seconds(expiresAt ?? issuedAt.addingTimeInterval(Self.defaultLifetime)),
        ]
        claims["email"] = email.map(TestClaim.string)
        claims["email_verified"] = emailVerified
        claims.merge(extraClaims) { _, extra in extra }
        return claims
    }

    /// An RS256 token signed with this issuer's key: the claims of `claims(...)` with the same
    /// arguments, and `kid` (default: this issuer's) in the header.
    func token(
        subject: String = defaultSubject, audience: TestClaim? = nil, issuer: String? = nil,
        issuedAt: Date = defaultIssuedAt, expiresAt: Date? = nil,
        email: String? = defaultEmail, emailVerified: TestClaim? = true, kid: String? = nil,
        extraClaims: [String: TestClaim] = [:]
    ) throws -> String {
        try signedToken(
            header: ["alg": "RS256", "typ": "JWT", "kid": .string(kid ?? self.kid)],
            claims: claims(
                subject: subject, audience: audience, issuer: issuer, issuedAt: issuedAt, expiresAt: expiresAt,
                email: email, emailVerified: emailVerified, extraClaims: extraClaims))
    }

    /// A token with exactly this header and these claims, RS256-signed with this issuer's key
    /// whatever the header's `alg` says. `claims` defaults to the default claims.
    func signedToken(header: [String: TestClaim], claims: [String: TestClaim]? = nil) throws -> String {
        try signedToken(headerJSON: Self.json(header), payloadJSON: Self.json(claims ?? self.claims()))
    }

    /// A token whose header and payload are these exact texts (which need not be JSON),
    /// RS256-signed with this issuer's key.
    func signedToken(headerJSON: String, payloadJSON: String) throws -> String {
        let signingInput = Self.base64URL(Data(headerJSON.utf8)) + "." + Self.base64URL(Data(payloadJSON.utf8))
        let signature = try key.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Self.base64URL(signature.rawRepresentation)
    }

    /// An HS256 token (`alg` `HS256`, this issuer's `kid`) with an HMAC-SHA256 signature under
    /// `secret`: the classic algorithm-confusion attempt.
    func hs256Token(claims: [String: TestClaim]? = nil, secret: String = "public-key-as-hmac-secret") -> String {
        let header = Self.json(["alg": "HS256", "typ": "JWT", "kid": .string(kid)])
        let payload = Self.json(claims ?? self.claims())
        let signingInput = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(payload.utf8))
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
        return signingInput + "." + Self.base64URL(Data(mac))
    }

    /// An unsecured token (`alg` `none`, this issuer's `kid`, empty signature).
    func unsecuredToken(claims: [String: TestClaim]? = nil) -> String {
        let header = Self.json(["alg": "none", "kid": .string(kid)])
        return Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(Self.json(claims ?? self.claims()).utf8)) + "."
    }

    // MARK: - Encoding

    /// Unpadded base64url (RFC 4648 §5), as JWS uses.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Compact JSON with sorted keys and unescaped slashes.
    static func json(_ object: [String: TestClaim]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers, booleans, arrays and objects cannot fail.
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// A JSON value in a test token's header or claims: write `"text"`, `42`, `true`, `["a", "b"]`.
enum TestClaim: Encodable, Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    /// A JSON string.
    case string(String)
    /// A JSON integer.
    case integer(Int)
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON array.
    case array([TestClaim])
    /// A JSON object.
    case object([String: TestClaim])
    /// JSON `null`.
    case null

    /// Whole seconds since 1970, as `iat` and `exp` are sent.
    static func seconds(_ date: Date) -> TestClaim { .integer(Int(date.timeIntervalSince1970)) }

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: TestClaim...) { self = .array(elements) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

extension Logger {
    /// A logger that prints only critical messages, for verifiers under test.
    static var quietForIdentityTests: Logger {
        var logger = Logger(label: "kindred.test.identity")
        logger.logLevel = .critical
        return logger
    }
}
