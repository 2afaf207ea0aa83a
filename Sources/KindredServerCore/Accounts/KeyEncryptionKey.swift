import Crypto
import Foundation
import KindredCrypto

/// The key that seals the access-token signing keys at rest (`KINDRED_KEY_ENCRYPTION_KEY` or the
/// file named by `KINDRED_KEY_ENCRYPTION_KEY_FILE`): 32 random bytes, never stored in the database.
///
/// Each signing key is sealed with AES-256-GCM under it, with the key's id and algorithm as
/// associated data, so a sealed secret copied onto another row does not open. The `fingerprint`
/// (an HMAC of a fixed label, not the key) is stored beside each sealed key, so a wrong key is
/// told apart from a damaged row.
public struct KeyEncryptionKey: Sendable {
    /// The key's bytes.
    let key: SymmetricKey
    /// 16 lower-case hex digits naming the key without revealing it.
    public let fingerprint: String

    /// The prefix of the associated data of a sealed signing key.
    static let associatedDataLabel = "kindred signing key v1"

    /// A key from its 32 bytes.
    /// - Throws: `SigningKeyError.invalidKeyEncryptionKey` unless there are exactly 32.
    public init(bytes: [UInt8]) throws(SigningKeyError) {
        guard bytes.count == 32 else {
            throw .invalidKeyEncryptionKey("it must be 32 bytes, not \(bytes.count) (make one with: openssl rand -base64 32)")
        }
        key = SymmetricKey(data: bytes)
        let mac = HMAC<SHA256>.authenticationCode(for: Array("kindred key encryption key fingerprint".utf8), using: key)
        fingerprint = String(Hex.encode(Array(mac)).prefix(16))
    }

    /// A key from its base64 text (standard or URL-safe alphabet, padding optional; surrounding
    /// white space, such as a file's last newline, is ignored).
    /// - Throws: `SigningKeyError.invalidKeyEncryptionKey` for text that is not base64 of 32 bytes.
    public init(base64 text: String) throws(SigningKeyError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let urlSafe = String(trimmed.prefix { $0 != "=" })
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        guard let bytes = try? Base64.decode(urlSafe, alphabet: .urlSafeNoPadding) else {
            throw .invalidKeyEncryptionKey("it is not base64 (make one with: openssl rand -base64 32)")
        }
        try self.init(bytes: bytes)
    }

    /// The key in the file at `path`: its base64 text.
    /// - Throws: `SigningKeyError.invalidKeyEncryptionKey` when the file cannot be read or holds no key.
    public init(contentsOfFile path: String) throws(SigningKeyError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .invalidKeyEncryptionKey("the file \(path) cannot be read")
        }
        guard text.utf8.count <= 1024 else { throw .invalidKeyEncryptionKey("the file \(path) is too long for a key") }
        try self.init(base64: text)
    }

    /// The associated data of signing key `id`.
    static func associatedData(id: String, algorithm: String) -> [UInt8] {
        Array("\(associatedDataLabel)\n\(id)\n\(algorithm)".utf8)
    }

    /// Seals a signing key's secret.
    /// - Returns: base64url of AES-GCM's combined nonce, ciphertext and tag.
    func seal(_ secret: [UInt8], id: String, algorithm: String) throws(SigningKeyError) -> String {
        do {
            let box = try AES.GCM.seal(secret, using: key, authenticating: Self.associatedData(id: id, algorithm: algorithm))
            guard let combined = box.combined else { throw SigningKeyError.sealingFailed }
            return Base64.encode(Array(combined), alphabet: .urlSafeNoPadding)
        } catch {
            throw .sealingFailed
        }
    }

    /// Opens a secret sealed by `seal`.
    /// - Throws: `SigningKeyError.cannotOpen` when it does not open under this key with this id.
    func open(_ sealed: String, id: String, algorithm: String) throws(SigningKeyError) -> [UInt8] {
        guard let bytes = try? Base64.decode(sealed, alphabet: .urlSafeNoPadding),
            let box = try? AES.GCM.SealedBox(combined: bytes),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Self.associatedData(id: id, algorithm: algorithm))
        else { throw .cannotOpen(keyID: id) }
        return Array(plain)
    }
}
