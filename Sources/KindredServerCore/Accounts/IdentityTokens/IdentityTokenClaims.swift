import Foundation
import JWTKit

/// The payload of an Apple or Google identity token, as sent, before any check.
///
/// Decoding is strict about types (a numeric `exp`, string `sub`, …) and lenient where the
/// providers are: `aud` is a string or an array of strings, and `email_verified` /
/// `is_private_email` are booleans or the strings `"true"`/`"false"`.
struct IdentityTokenClaims: JWTPayload, Equatable {
    /// `iss`.
    var issuer: String?
    /// `sub`.
    var subject: String?
    /// `aud`, one element when the token sent a single string.
    var audiences: [String]?
    /// `exp`, seconds since 1970.
    var expiresAt: Double?
    /// `iat`, seconds since 1970.
    var issuedAt: Double?
    /// `email`.
    var email: String?
    /// `email_verified`.
    var emailVerified: Bool?
    /// `is_private_email` (Apple).
    var isPrivateEmail: Bool?
    /// `nonce`: what the app passed to the provider (Kindred's clients: the SHA-256 hex of the
    /// nonce they then send to the server).
    var nonce: String?

    private enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case subject = "sub"
        case audiences = "aud"
        case expiresAt = "exp"
        case issuedAt = "iat"
        case email
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
        case nonce
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        if try !container.contains(.audiences) || container.decodeNil(forKey: .audiences) {
            audiences = nil
        } else if let single = try? container.decode(String.self, forKey: .audiences) {
            audiences = [single]
        } else {
            audiences = try container.decode([String].self, forKey: .audiences)
        }
        expiresAt = try container.decodeIfPresent(Double.self, forKey: .expiresAt)
        issuedAt = try container.decodeIfPresent(Double.self, forKey: .issuedAt)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try Self.decodeLenientBool(container, .emailVerified)
        isPrivateEmail = try Self.decodeLenientBool(container, .isPrivateEmail)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(issuer, forKey: .issuer)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encodeIfPresent(audiences, forKey: .audiences)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(issuedAt, forKey: .issuedAt)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(emailVerified, forKey: .emailVerified)
        try container.encodeIfPresent(isPrivateEmail, forKey: .isPrivateEmail)
        try container.encodeIfPresent(nonce, forKey: .nonce)
    }

    /// Does nothing: the time and issuer checks are ``IdentityTokenVerifier``'s, against its
    /// injected clock (jwt-kit's own claim checks read `Date()`).
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// A boolean sent as JSON `true`/`false` or as the string `"true"`/`"false"`.
    private static func decodeLenientBool(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> Bool? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        if let value = try? container.decode(Bool.self, forKey: key) { return value }
        switch try container.decode(String.self, forKey: key) {
        case "true": return true
        case "false": return false
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "expected a boolean or \"true\"/\"false\"")
        }
    }
}
