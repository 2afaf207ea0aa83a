@testable import KindredCrypto

/// The known-answer vectors of `Vectors/closer.json` (computed with Python's `cryptography`,
/// `argon2-cffi` and `hashlib`, independently of KindredCrypto; see `docs/wire-formats/closer.md`).
struct CloserVectors: Decodable {
    /// `enc:v1:` under a fixed couple key (Tink AES-256-GCM, TINK prefix) and IV.
    struct Enc: Decodable {
        let coupleKey: String
        let keyID: UInt32
        let iv, coupleId, plaintext, ciphertext: String
    }

    /// A sealed answer with fixed one-time key, IV and nonce; its commitment seal uses `enc`'s couple key.
    struct Sealed: Decodable {
        let coupleId, questionId, userId, answer: String
        let nonce, oneTimeKey, iv: String
        let canonicalJSON, payload, commitment: String
        let commitmentSealIV, commitmentSeal: String
    }

    let enc: Enc
    let sealed: Sealed

    static func load() throws -> CloserVectors { try Vectors.load("closer") }

    /// The couple keyset of the `enc` vector.
    func coupleKeyset() throws -> Keyset {
        try Keyset.aes256GCM(key: Hex.decode(enc.coupleKey), keyID: enc.keyID, outputPrefixType: .tink)
    }
}
