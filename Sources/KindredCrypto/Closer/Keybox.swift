/// `keybox:v1:` — a sealed answer's one-time key released to the partner: `"keybox:v1:" +
/// base64url-no-padding(Tink ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM ciphertext of the 32-byte
/// key)`, context info `coupleId|questionId|senderUserId|recipientUserId`.
/// Spec: `docs/wire-formats.md`, "keybox:v1".
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
        return try wrap(oneTimeKey: oneTimeKey, recipient: TinkHybridEncrypt(publicKeyset: recipientPublicKeyset), context: context)
    }

    /// Wraps a one-time key with the partner's primitive made once (`TinkHybridEncrypt(publicKeyset:)`),
    /// which saves reading and validating the public keyset on every call.
    /// - Parameters:
    ///   - oneTimeKey: the 32-byte key of the sender's sealed answer.
    ///   - recipient: the partner's hybrid-encryption primitive.
    ///   - context: couple, question, sender and recipient.
    /// - Returns: the `keybox:v1:` string.
    /// - Throws: `.invalidKeySize` unless the key is 32 bytes, `.tooLong` beyond 512 characters.
    public static func wrap(oneTimeKey: [UInt8], recipient: TinkHybridEncrypt, context: KeyboxContext) throws(KindredCryptoError) -> String {
        guard oneTimeKey.count == CloserAESGCM.keyLength else { throw .invalidKeySize(expected: CloserAESGCM.keyLength, actual: oneTimeKey.count) }
        let ciphertext = try recipient.encrypt(oneTimeKey, contextInfo: context.contextInfo)
        let wireFormat = CloserWireFormat.Format.keybox
        let limit = wireFormat.maximumLength
        guard wireFormat.prefix.utf8.count + Base64.encodedLength(ciphertext.count, alphabet: .urlSafeNoPadding) <= limit else {
            throw .tooLong(format: format, limit: limit)
        }
        return Base64.encode(ciphertext, alphabet: .urlSafeNoPadding, prefix: wireFormat.prefix)
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
        return try unwrap(ciphertext: ciphertext, recipient: TinkHybridDecrypt(privateKeyset: recipientPrivateKeyset), context: context)
    }

    /// Unwraps a keybox with the recipient's primitive made once (`TinkHybridDecrypt(privateKeyset:)`),
    /// which saves reading and validating the private keyset on every call.
    /// - Parameters:
    ///   - keybox: the `keybox:v1:` string.
    ///   - recipient: my hybrid-decryption primitive.
    ///   - context: the same four identifiers used to wrap it.
    /// - Returns: the 32-byte one-time key.
    /// - Throws: as `unwrap(_:recipientPrivateKeyset:context:)`, without the keyset errors.
    public static func unwrap(_ keybox: String, recipient: TinkHybridDecrypt, context: KeyboxContext) throws(KindredCryptoError) -> [UInt8] {
        try unwrap(ciphertext: CloserWireFormat.decodeBody(keybox, as: .keybox), recipient: recipient, context: context)
    }

    private static func unwrap(ciphertext: [UInt8], recipient: TinkHybridDecrypt, context: KeyboxContext) throws(KindredCryptoError) -> [UInt8] {
        let key = try recipient.decrypt(ciphertext, contextInfo: context.contextInfo)
        guard key.count == CloserAESGCM.keyLength else { throw .invalidKeySize(expected: CloserAESGCM.keyLength, actual: key.count) }
        return key
    }
}
