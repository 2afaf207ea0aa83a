/// `keybox:v1:` — a sealed answer's one-time key released to the partner: `"keybox:v1:" +
/// base64url-no-padding(Tink ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM ciphertext of the 32-byte
/// key)`, context info `coupleId|questionId|senderUserId|recipientUserId`.
/// Spec: `docs/wire-formats/closer.md`, "keybox:v1".
public enum Keybox {
    /// The wire format's name in errors.
    static let format = CloserWireFormat.Format.keybox.rawValue

    /// Wraps a one-time key to the partner's published public key.
    /// - Parameters:
    ///   - oneTimeKey: the 32-byte key of the sender's sealed answer.
    ///   - recipientPublicKeyset: the partner's keyset (`CloserPublicKey.decode`).
    ///   - context: couple, question, sender and recipient.
    /// - Returns: the `keybox:v1:` string.
    /// - Throws: `.invalidKeySize` unless the key is 32 bytes, `TinkHybridEncrypt` errors,
    ///   `.tooLong` beyond 512 characters.
    public static func wrap(oneTimeKey: [UInt8], recipientPublicKeyset: Keyset, context: KeyboxContext) throws(KindredCryptoError) -> String {
        guard oneTimeKey.count == CloserAESGCM.keyLength else { throw .invalidKeySize(expected: CloserAESGCM.keyLength, actual: oneTimeKey.count) }
        let ciphertext = try TinkHybridEncrypt(publicKeyset: recipientPublicKeyset).encrypt(oneTimeKey, contextInfo: context.contextInfo)
        let wire = CloserWireFormat.Format.keybox.prefix + Base64.encode(ciphertext, alphabet: .urlSafeNoPadding)
        let limit = CloserWireFormat.Format.keybox.maximumLength
        guard wire.utf8.count <= limit else { throw .tooLong(format: format, limit: limit) }
        return wire
    }

    /// Unwraps a keybox with the recipient's private keyset.
    /// - Parameters:
    ///   - keybox: the `keybox:v1:` string.
    ///   - recipientPrivateKeyset: the recipient's ECIES P-256 private keyset.
    ///   - context: the same four identifiers used to wrap it.
    /// - Returns: the 32-byte one-time key.
    /// - Throws: `.wrongPrefix`, `.tooLong`, `.truncated`, `.malformed` for a bad string;
    ///   `.authenticationFailed` / `.noMatchingKey` for a wrong key, context or modification;
    ///   `.invalidKeySize` if the plaintext is not 32 bytes.
    public static func unwrap(_ keybox: String, recipientPrivateKeyset: Keyset, context: KeyboxContext) throws(KindredCryptoError) -> [UInt8] {
        let ciphertext = try CloserWireFormat.decodeBody(keybox, as: .keybox)
        let key = try TinkHybridDecrypt(privateKeyset: recipientPrivateKeyset).decrypt(ciphertext, contextInfo: context.contextInfo)
        guard key.count == CloserAESGCM.keyLength else { throw .invalidKeySize(expected: CloserAESGCM.keyLength, actual: key.count) }
        return key
    }
}
