/// Tink's AEAD primitive for AES-GCM keysets, byte-compatible with `keysetHandle.getPrimitive(Aead.class)`
/// in Java Tink.
///
/// Ciphertext: `output prefix ‖ 12-byte IV ‖ AES-GCM ciphertext ‖ 16-byte tag`, where the prefix
/// is `0x01 ‖ key id` (TINK), `0x00 ‖ key id` (LEGACY, CRUNCHY) or empty (RAW).
/// Spec: `docs/wire-formats/tink.md`, "AEAD ciphertext".
public struct TinkAEAD: Sendable {
    private let keys: PrimitiveSet<[UInt8]>
    private static let format = "tink aead"

    /// Builds the primitive from a keyset of `AesGcmKey` keys.
    /// - Parameter keyset: a keyset whose enabled keys are all AES-GCM keys (16 or 32 bytes).
    /// - Throws: `.invalidKeyset` (no enabled primary, unknown prefix type, bad key version),
    ///   `.unsupportedKeyType`, `.invalidKeySize`, or `.malformed` for an unreadable key proto.
    public init(keyset: Keyset) throws(KindredCryptoError) {
        keys = try PrimitiveSet(keyset: keyset, typeURLs: [AesGcmKey.typeURL]) { (data) throws(KindredCryptoError) in
            try AesGcmKey(serialized: data.value).keyValue
        }
    }

    /// Encrypts with the primary key and a fresh random IV.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - associatedData: authenticated but not encrypted; the same bytes are needed to decrypt.
    /// - Returns: `prefix ‖ IV ‖ ciphertext ‖ tag`.
    /// - Throws: never in practice (the key was validated at init); typed for uniformity.
    public func encrypt(_ plaintext: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        keys.primary.prefix + (try AesGcmCipher.seal(plaintext, key: keys.primary.primitive, associatedData: associatedData))
    }

    /// Encrypts with the primary key and the given IV (known-answer tests only).
    func encrypt(_ plaintext: [UInt8], associatedData: [UInt8], iv: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        keys.primary.prefix + (try AesGcmCipher.seal(plaintext, key: keys.primary.primitive, iv: iv, associatedData: associatedData))
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
