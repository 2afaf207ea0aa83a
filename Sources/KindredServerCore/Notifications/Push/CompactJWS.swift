import Crypto
import _CryptoExtras
import Foundation
import KindredCrypto

/// Signs the small JWTs the push providers want: ES256 provider tokens for APNs and RS256
/// service-account assertions for Google's OAuth token endpoint.
enum CompactJWS {
    /// `header.payload.signature` with ES256 (the raw 64-byte r‖s signature, RFC 7518 §3.4).
    static func es256(header: [String: String], claims: [String: any Sendable], key: P256.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header: header, claims: claims)
        let signature = try key.signature(for: Array(input.utf8))
        return input + "." + Base64.encode(Array(signature.rawRepresentation), alphabet: .urlSafeNoPadding)
    }

    /// `header.payload.signature` with RS256 (RSASSA-PKCS1-v1_5 over SHA-256).
    static func rs256(header: [String: String], claims: [String: any Sendable], key: _RSA.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header: header, claims: claims)
        let signature = try key.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64.encode(Array(signature.rawRepresentation), alphabet: .urlSafeNoPadding)
    }

    private static func signingInput(header: [String: String], claims: [String: any Sendable]) throws -> String {
        let headerJSON = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        let claimsJSON = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return Base64.encode(Array(headerJSON), alphabet: .urlSafeNoPadding) + "."
            + Base64.encode(Array(claimsJSON), alphabet: .urlSafeNoPadding)
    }
}
