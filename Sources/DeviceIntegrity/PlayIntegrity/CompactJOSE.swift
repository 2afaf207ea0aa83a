import Crypto
import Foundation

/// The two JOSE steps of a Play Integrity token: a compact JWE (A256KW, A256GCM; RFC 7516) around a
/// compact JWS (ES256; RFC 7515).
enum CompactJOSE {
    private struct Header: Decodable {
        var alg: String
        var enc: String?
    }

    /// Decrypts a compact JWE with key wrapping A256KW (RFC 7518, section 4.4; RFC 3394) and content
    /// encryption A256GCM (RFC 7518, section 5.3).
    /// - Parameters:
    ///   - token: `header.encryptedKey.iv.ciphertext.tag`.
    ///   - key: the 256-bit key-encryption key.
    /// - Returns: the plaintext.
    /// - Throws: `DeviceIntegrityError.malformedToken`, `.unsupportedAlgorithm` or `.decryptionFailed`.
    static func decrypt(_ token: String, key: SymmetricKey) throws(DeviceIntegrityError) -> [UInt8] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5 else { throw .malformedToken("JWE has \(parts.count) parts, needs 5") }
        let header = try decodeHeader(parts[0])
        guard header.alg == "A256KW" else { throw .unsupportedAlgorithm(header.alg) }
        guard header.enc == "A256GCM" else { throw .unsupportedAlgorithm(header.enc ?? "none") }
        guard let wrapped = Base64URL.decode(parts[1]), let iv = Base64URL.decode(parts[2]),
            let ciphertext = Base64URL.decode(parts[3]), let tag = Base64URL.decode(parts[4])
        else { throw .malformedToken("JWE part is not base64url") }
        guard iv.count == 12, tag.count == 16, wrapped.count == 40 else {
            throw .malformedToken("JWE key, IV or tag has the wrong length")
        }
        do {
            let contentKey = try AES.KeyWrap.unwrap(wrapped, using: key)
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
            return Array(try AES.GCM.open(box, using: contentKey, authenticating: Array(parts[0].utf8)))
        } catch {
            throw .decryptionFailed
        }
    }

    /// Verifies a compact JWS signed with ES256 (RFC 7518, section 3.4) and returns its payload.
    /// - Parameters:
    ///   - token: `header.payload.signature`.
    ///   - key: the P-256 verification key.
    /// - Returns: the payload bytes.
    /// - Throws: `DeviceIntegrityError.malformedToken`, `.unsupportedAlgorithm` or `.invalidSignature`.
    static func verify(_ token: String, key: P256.Signing.PublicKey) throws(DeviceIntegrityError) -> [UInt8] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedToken("JWS has \(parts.count) parts, needs 3") }
        let header = try decodeHeader(parts[0])
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        guard let payload = Base64URL.decode(parts[1]), let signatureBytes = Base64URL.decode(parts[2]) else {
            throw .malformedToken("JWS part is not base64url")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8))
        else { throw .invalidSignature }
        return payload
    }

    private static func decodeHeader(_ part: Substring) throws(DeviceIntegrityError) -> Header {
        guard let bytes = Base64URL.decode(part), let header = try? JSONDecoder().decode(Header.self, from: Data(bytes)) else {
            throw .malformedToken("JOSE header is not base64url JSON with alg")
        }
        return header
    }
}
