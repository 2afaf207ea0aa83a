import Crypto

/// The symmetric key two SoulMate partners share, and the chat envelope it seals.
///
/// key = HKDF-SHA256(ikm: X25519(mine, theirs), salt: UTF-8 of `"SoulMate::" + sorted([pubA, pubB]).joined("|")`
/// (both public keys as standard Base64), info: `"soulmate-chat-v1"`, 32 bytes).
/// Envelope = standard Base64 of AES-256-GCM `combined` (12-byte nonce ‖ ciphertext ‖ 16-byte tag),
/// no associated data. Spec: `docs/wire-formats.md`, "SoulMate chat envelopes".
public struct SoulMateChatKey: Sendable {
    /// The HKDF info string.
    public static let info = "soulmate-chat-v1"
    /// The prefix of the HKDF salt.
    public static let saltPrefix = "SoulMate::"
    /// The largest envelope accepted, in Base64 characters.
    public static let maximumEnvelopeLength = 32 * 1024

    private let key: SymmetricKey

    /// Derives the pair key from my identity and my partner's published public key.
    /// - Parameters:
    ///   - identity: my identity key pair.
    ///   - partnerPublicKeyBase64: the partner's public key, standard Base64.
    /// - Throws: `KindredCryptoError` for a malformed or invalid public key.
    public init(identity: SoulMateIdentity, partnerPublicKeyBase64: String) throws(KindredCryptoError) {
        let partner = try SoulMateIdentity.publicKey(fromBase64: partnerPublicKeyBase64)
        let shared: SharedSecret
        do {
            shared = try identity.privateKey.sharedSecretFromKeyAgreement(with: partner)
        } catch {
            throw .invalidPublicKey
        }
        // Re-encode the partner key so the salt never depends on how the caller spelled it.
        let mine = identity.publicKeyBase64
        let theirs = Base64.encode(Array(partner.rawRepresentation), alphabet: .standard)
        let salt = Self.saltPrefix + [mine, theirs].sorted().joined(separator: "|")
        key = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: Array(salt.utf8), sharedInfo: Array(Self.info.utf8), outputByteCount: 32)
    }

    /// Restores a pair key cached on the device (`crypto.shared.<partnerUID>`).
    /// - Parameter keyBytes: the 32 bytes `keyBytes` returned.
    /// - Throws: `KindredCryptoError.invalidKeySize`.
    public init(keyBytes: [UInt8]) throws(KindredCryptoError) {
        guard keyBytes.count == 32 else { throw .invalidKeySize(expected: 32, actual: keyBytes.count) }
        key = SymmetricKey(data: keyBytes)
    }

    /// The 32 key bytes, for the device's secure store.
    public var keyBytes: [UInt8] { key.withUnsafeBytes { Array($0) } }

    /// Seals a chat payload into an envelope.
    /// - Parameter payload: the message.
    /// - Returns: standard Base64 of nonce ‖ ciphertext ‖ tag.
    /// - Throws: `KindredCryptoError` when the payload breaks SoulMate's rules.
    public func seal(_ payload: ChatPayload) throws(KindredCryptoError) -> String {
        try seal(payload, nonce: AES.GCM.Nonce())
    }

    /// Seals with a given nonce: known-answer tests only, never reuse a nonce.
    func seal(_ payload: ChatPayload, nonce: AES.GCM.Nonce) throws(KindredCryptoError) -> String {
        let plaintext = try payload.encoded()
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
            guard let combined = box.combined else { throw KindredCryptoError.authenticationFailed }
            return Base64.encode(Array(combined), alphabet: .standard)
        } catch {
            throw .authenticationFailed
        }
    }

    /// Opens an envelope.
    /// - Parameter envelope: standard Base64 of nonce ‖ ciphertext ‖ tag.
    /// - Returns: the payload.
    /// - Throws: `.tooLong`, `.malformed`, `.truncated`, `.authenticationFailed` (wrong key or
    ///   modified envelope), or `.malformed` for a payload that is not a chat payload.
    public func open(_ envelope: String) throws(KindredCryptoError) -> ChatPayload {
        let format = "soulmate-envelope"
        guard envelope.utf8.count <= Self.maximumEnvelopeLength else {
            throw .tooLong(format: format, limit: Self.maximumEnvelopeLength)
        }
        let bytes = try Base64.decode(envelope, alphabet: .standard, format: format)
        guard bytes.count >= 12 + 16 else { throw .truncated(format: format) }
        let plaintext: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(combined: bytes)
            plaintext = Array(try AES.GCM.open(box, using: key))
        } catch {
            throw .authenticationFailed
        }
        return try ChatPayload(decoding: plaintext)
    }
}
