import Crypto

/// Tink's AEAD primitive for AES-GCM keysets, byte-compatible with `keysetHandle.getPrimitive(Aead.class)`
/// in Java Tink.
///
/// Ciphertext: `output prefix ‖ 12-byte IV ‖ AES-GCM ciphertext ‖ 16-byte tag`, where the prefix
/// is `0x01 ‖ key id` (TINK), `0x00 ‖ key id` (LEGACY, CRUNCHY) or empty (RAW).
/// Spec: `docs/wire-formats.md`, "AEAD ciphertext".
public struct TinkAEAD: Sendable {
    /// Each enabled key as a ready swift-crypto key (made once here, not per message).
    private let keys: PrimitiveSet<SymmetricKey>
    private static let format = "tink aead"

    /// Builds the primitive from a keyset of `AesGcmKey` keys.
    /// - Parameter keyset: a keyset whose enabled keys are all AES-GCM keys (16 or 32 bytes).
    /// - Throws: `.invalidKeyset` (no enabled primary, unknown prefix type, bad key version),
    ///   `.unsupportedKeyType`, `.invalidKeySize`, or `.malformed` for an unreadable key proto.
    public init(keyset: Keyset) throws(KindredCryptoError) {
        keys = try PrimitiveSet(keyset: keyset, typeURLs: [AesGcmKey.typeURL]) { (data) throws(KindredCryptoError) in
            try AesGcmCipher.key(AesGcmKey(serialized: data.value).keyValue)
        }
    }

    /// Encrypts with the primary key and a fresh random IV.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - associatedData: authenticated but not encrypted; the same bytes are needed to decrypt.
    /// - Returns: `prefix ‖ IV ‖ ciphertext ‖ tag`.
    /// - Throws: never in practice (the key was validated at init); typed for uniformity.
    public func encrypt(_ plaintext: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        try encrypt(plaintext, associatedData: associatedData, iv: SecureRandom.bytes(AesGcmCipher.ivSize))
    }

    /// Encrypts with the primary key and the given IV: known-answer tests, and callers that draw
    /// the IV together with other random bytes.
    /// - Throws: `.invalidParameters` for an IV that is not 12 bytes.
    func encrypt(_ plaintext: [UInt8], associatedData: [UInt8], iv: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        guard iv.count == AesGcmCipher.ivSize else {
            throw .invalidParameters("AES-GCM IV must be \(AesGcmCipher.ivSize) bytes, got \(iv.count)")
        }
        return try plaintext.withBytes { (message) throws(KindredCryptoError) in
            try encrypt(message, associatedData: associatedData, iv: iv[...])
        }
    }

    /// Encrypts with the primary key and a 12-byte IV the caller has checked.
    func encrypt(_ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8], iv: ArraySlice<UInt8>) throws(KindredCryptoError) -> [UInt8] {
        try AesGcmCipher.seal(plaintext, key: keys.primary.primitive, iv: iv, associatedData: associatedData, prefix: keys.primary.prefix)
    }

    /// Decrypts a ciphertext made by any enabled key of the keyset.
    /// - Parameters:
    ///   - ciphertext: `prefix ‖ IV ‖ ciphertext ‖ tag`.
    ///   - associatedData: the bytes given at encryption.
    /// - Returns: the plaintext.
    /// - Throws: `.noMatchingKey` when no key's prefix matches and there is no RAW key,
    ///   `.truncated` when too short for every candidate key, otherwise `.authenticationFailed`.
    public func decrypt(_ ciphertext: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        try keys.decrypt(ciphertext) { (key, body) throws(KindredCryptoError) in
            try AesGcmCipher.open(body, key: key, associatedData: associatedData, format: Self.format)
        }
    }
}
