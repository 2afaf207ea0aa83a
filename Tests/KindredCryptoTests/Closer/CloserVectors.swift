@testable import KindredCrypto

/// The known-answer vectors of `Vectors/closer.json` (computed with Python's `cryptography`,
/// `argon2-cffi` and `hashlib`, independently of KindredCrypto; see `docs/wire-formats.md`).
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

    /// The couple-key wrap with fixed salt and IV and cheap Argon2id parameters (m = 64, t = 2).
    struct Wrap: Decodable {
        let keyset, phrase: String
        let phraseIndices: [UInt8]
        let kdfSalt, kdfParams, iv, derivedKey, wrappedCoupleKey: String
    }

    /// The invite transport with fixed secret, salt and IV and cheap Argon2id parameters.
    struct Invite: Decodable {
        let code, secret, checkSymbol, share, kdfSalt, kdfParams, iv, phrase: String
        let phraseKey, verifierKey, encryptedPhrase, verifier: String
    }

    let enc: Enc
    let sealed: Sealed
    let wrap: Wrap
    let invite: Invite

    static func load() throws -> CloserVectors { try Vectors.load("closer") }

    /// The couple keyset of the `enc` vector.
    func coupleKeyset() throws -> Keyset {
        try Keyset.aes256GCM(key: Hex.decode(enc.coupleKey), keyID: enc.keyID, outputPrefixType: .tink)
    }
}
