import KindredServerCore
import Crypto
import Foundation

/// Checks a RevenueCat webhook request: the configured `Authorization` header value, and, when
/// a signing key is configured, an Ed25519 signature of the raw body in `X-RevenueCat-Signature`.
package struct RevenueCatWebhookAuthenticator: Sendable {
    /// Why a request is refused.
    enum Failure: Error, Equatable {
        /// The server has no `KINDRED_REVENUECAT_WEBHOOK_AUTH` (or a signing key that is not an
        /// Ed25519 SPKI): 500, an operator's mistake.
        case notConfigured(String)
        /// Missing or wrong credentials: 401.
        case unauthorized(String)
    }

    let authorization: String?
    let signingKey: String?

    /// Verifies the request.
    /// - Parameters:
    ///   - authorizationHeader: the request's `Authorization` value.
    ///   - signatureHeader: the request's `X-RevenueCat-Signature` value (Base64).
    ///   - body: the raw body.
    /// - Throws: `Failure`.
    func verify(authorizationHeader: String?, signatureHeader: String?, body: [UInt8]) throws(Failure) {
        guard let expected = authorization, !expected.isEmpty else {
            throw .notConfigured("KINDRED_REVENUECAT_WEBHOOK_AUTH is not set")
        }
        var publicKey: Curve25519.Signing.PublicKey?
        if let signingKey, !signingKey.isEmpty {
            guard let key = Self.publicKey(spkiBase64: signingKey) else {
                throw .notConfigured("KINDRED_REVENUECAT_SIGNING_KEY is not a Base64 Ed25519 SPKI public key")
            }
            publicKey = key
        }
        guard let given = authorizationHeader, Self.constantTimeEqual(Array(given.utf8), Array(expected.utf8)) else {
            throw .unauthorized("missing or wrong Authorization header")
        }
        guard let publicKey else { return }
        guard let signatureText = signatureHeader,
            let signature = Data(base64Encoded: signatureText.trimmingCharacters(in: .whitespaces))
        else { throw .unauthorized("missing or malformed X-RevenueCat-Signature") }
        guard publicKey.isValidSignature(signature, for: Data(body)) else {
            throw .unauthorized("X-RevenueCat-Signature does not verify")
        }
    }

    /// The 12-byte DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4), before the 32-byte key.
    static let spkiPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// Parses a Base64 DER SPKI Ed25519 public key (RFC 8410).
    /// - Returns: the key, or nil when it is not one.
    package static func publicKey(spkiBase64: String) -> Curve25519.Signing.PublicKey? {
        guard let der = Data(base64Encoded: spkiBase64.trimmingCharacters(in: .whitespacesAndNewlines)).map(Array.init),
            der.count == 44, Array(der.prefix(12)) == spkiPrefix
        else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: der.suffix(32))
    }

    /// Compares without an early exit on the first differing byte.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
