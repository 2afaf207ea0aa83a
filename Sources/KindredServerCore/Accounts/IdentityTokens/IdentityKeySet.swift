import Foundation
import JWTKit
import Logging

/// The RS256 signing keys of one loaded JWKS, by `kid`, ready for jwt-kit.
///
/// Keys that cannot sign RS256 identity tokens (another `kty`, `alg` or `use`, no `kid`, an
/// RSA modulus under 2048 bits) and keys with a private part are skipped with a warning, so one odd key does not take the
/// provider's whole set down; a set with no usable key is ``IdentityTokenError/invalidJWKS(_:)``.
struct IdentityKeySet: Sendable {
    /// The largest JWKS document the verifier reads, from a file or an endpoint.
    static let maximumDocumentSize = 1 << 20

    /// The `kid`s of the usable keys.
    let keyIDs: Set<String>
    /// The same keys in jwt-kit's collection. Only ever asked for a `kid` in ``keyIDs``:
    /// for any other, jwt-kit would fall back to a default key.
    private let collection: JWTKeyCollection

    /// Parses a JWKS document (RFC 7517 §5).
    ///
    /// - Parameters:
    ///   - document: The JSON text.
    ///   - logger: Where skipped keys are reported.
    /// - Returns: The usable keys.
    /// - Throws: ``IdentityTokenError/invalidJWKS(_:)`` when the document is not a JWKS or
    ///   holds no usable key.
    static func parse(_ document: [UInt8], logger: Logger) async throws(IdentityTokenError) -> IdentityKeySet {
        guard document.count <= maximumDocumentSize else {
            throw .invalidJWKS("the key set is larger than \(maximumDocumentSize) bytes")
        }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode(Document.self, from: Data(document)).keys
        } catch {
            throw .invalidJWKS("not a JSON object with a \"keys\" array")
        }
        let collection = JWTKeyCollection()
        var keyIDs: Set<String> = []
        for (index, entry) in entries.enumerated() {
            switch entry.usability {
            case .usable(let kid, let jwk):
                do {
                    try await collection.add(jwk: jwk)
                    keyIDs.insert(kid)
                } catch {
                    logger.warning(
                        "skipping an unusable JWKS key",
                        metadata: ["index": "\(index)", "kid": "\(kid)", "reason": "\(error)"])
                }
            case .skipped(let reason):
                logger.warning(
                    "skipping a JWKS key",
                    metadata: ["index": "\(index)", "kid": "\(entry.kid ?? "-")", "reason": "\(reason)"])
            }
        }
        guard !keyIDs.isEmpty else { throw .invalidJWKS("the key set holds no usable RS256 signing key") }
        return IdentityKeySet(keyIDs: keyIDs, collection: collection)
    }

    /// Checks the RS256 signature of `token` with the key named `kid` (one of ``keyIDs``).
    ///
    /// - Throws: ``IdentityTokenError/badSignature`` when it does not verify.
    func verifySignature(of token: String, kid: String) async throws(IdentityTokenError) {
        guard keyIDs.contains(kid) else { throw .unknownKey }
        do {
            _ = try await collection.verify(token, as: IdentityTokenClaims.self)
        } catch {
            throw .badSignature
        }
    }

    // MARK: - Decoding

    /// `{"keys": [...]}`.
    private struct Document: Decodable {
        let keys: [Entry]
    }

    /// Why a key of the set is or is not used.
    private enum Usability {
        case usable(kid: String, JWK)
        case skipped(String)
    }

    /// One element of `keys`. Decoding never fails, so one odd element does not fail the set.
    private struct Entry: Decodable {
        let keyType: String?
        let kid: String?
        let algorithm: String?
        let use: String?
        /// Whether the key carries an RSA private member (RFC 7518 §6.3.2).
        let hasPrivatePart: Bool
        let jwk: JWK?

        private enum CodingKeys: String, CodingKey {
            case keyType = "kty", kid, algorithm = "alg", use
            case d, p, q, dp, dq, qi, oth
        }

        init(from decoder: any Decoder) {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            func string(_ key: CodingKeys) -> String? {
                (try? container?.decodeIfPresent(String.self, forKey: key)) ?? nil
            }
            keyType = string(.keyType)
            kid = string(.kid)
            algorithm = string(.algorithm)
            use = string(.use)
            hasPrivatePart = [CodingKeys.d, .p, .q, .dp, .dq, .qi, .oth].contains { container?.contains($0) ?? false }
            jwk = try? JWK(from: decoder)
        }

        var usability: Usability {
            guard keyType == "RSA" else { return .skipped("kty is not RSA") }
            guard algorithm == nil || algorithm == "RS256" else { return .skipped("alg is not RS256") }
            guard use == nil || use == "sig" else { return .skipped("use is not sig") }
            guard let kid, !kid.isEmpty else { return .skipped("no kid") }
            // A published key set holds public keys only. With `d`, jwt-kit builds a private key,
            // and swift-crypto traps on inconsistent private numbers (scripts/fuzz identity-jwks).
            guard !hasPrivatePart else { return .skipped("the key has a private part") }
            guard let jwk else { return .skipped("not a valid RSA JWK") }
            return .usable(kid: kid, jwk)
        }
    }
}
