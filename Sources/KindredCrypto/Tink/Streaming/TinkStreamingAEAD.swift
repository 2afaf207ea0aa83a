/// Tink's streaming AEAD (`AesGcmHkdfStreaming`, template `AES256_GCM_HKDF_1MB`) over a keyset:
/// encrypts with the primary key, decrypts with whichever enabled key authenticates the header
/// and first segment, as Tink's `StreamingAeadWrapper` does.
///
/// Encryption and decryption are incremental (`makeEncrypter`/`makeDecrypter`) and hold at most
/// about one segment (1 MiB) in memory. Ciphertexts are byte-compatible with Tink in every language.
/// Spec: `docs/wire-formats.md`, "Streaming AEAD (AES256_GCM_HKDF_1MB)".
public struct TinkStreamingAEAD: Sendable {
    /// The primary key: it encrypts.
    let primary: AesGcmHkdfStreamingKey
    /// The enabled keys in keyset order: decryption tries them in turn.
    let decryptionKeys: [AesGcmHkdfStreamingKey]

    /// Reads the keys of a streaming AEAD keyset.
    /// - Parameter keyset: a keyset whose enabled keys are all `AesGcmHkdfStreamingKey`s with
    ///   output prefix RAW (Tink requires RAW for streaming keys); disabled and destroyed keys are ignored.
    /// - Throws: `.invalidKeyset` (no usable primary, a non-RAW key), `.unsupportedKeyType`, or the
    ///   key's `.malformed`/`.invalidParameters`/`.invalidKeySize`/`.parametersOutOfBounds`.
    public init(keyset: Keyset) throws(KindredCryptoError) {
        let primaryEntry = try keyset.primaryKey()
        var primary: AesGcmHkdfStreamingKey?
        var keys: [AesGcmHkdfStreamingKey] = []
        for entry in keyset.keys where entry.status == .enabled {
            guard entry.keyData.typeURL == AesGcmHkdfStreamingKey.typeURL else {
                throw .unsupportedKeyType(typeURL: entry.keyData.typeURL)
            }
            guard entry.outputPrefixType == .raw else {
                throw .invalidKeyset(reason: "streaming AEAD keys must have output prefix RAW (key \(entry.keyID))")
            }
            let key = try AesGcmHkdfStreamingKey(serialized: entry.keyData.value)
            if entry.keyID == primaryEntry.keyID { primary = key }
            keys.append(key)
        }
        // primaryKey() checked that exactly one key has the primary id and that it is enabled.
        guard let primary else { throw .invalidKeyset(reason: "the primary key is not enabled") }
        self.primary = primary
        self.decryptionKeys = keys
    }

    /// Starts encrypting one stream with the primary key, a fresh random salt and nonce prefix.
    /// - Parameter associatedData: data authenticated with (but not stored in) the ciphertext.
    /// - Returns: an encrypter; feed it with `update`, end it with `finish`.
    /// - Throws: nothing today; typed for symmetry with the other primitives.
    public func makeEncrypter(associatedData: [UInt8]) throws(KindredCryptoError) -> StreamingEncrypter {
        let salt = SecureRandom.bytes(primary.parameters.derivedKeySize)
        let prefix = SecureRandom.bytes(StreamingGeometry.noncePrefixSize)
        return StreamingEncrypter(key: primary, salt: salt, noncePrefix: prefix, associatedData: associatedData)
    }

    /// Starts decrypting one stream.
    /// - Parameter associatedData: the associated data the stream was encrypted with.
    /// - Returns: a decrypter; feed it with `update`, end it with `finish`.
    /// - Throws: nothing today; typed for symmetry with the other primitives.
    public func makeDecrypter(associatedData: [UInt8]) throws(KindredCryptoError) -> StreamingDecrypter {
        StreamingDecrypter(keys: decryptionKeys, associatedData: associatedData)
    }

    /// Encrypts a whole (small) plaintext in one call.
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt.
    ///   - associatedData: data authenticated with the ciphertext.
    /// - Returns: `header ‖ segments`, exactly what Tink's encrypting stream writes.
    /// - Throws: `.tooLong` past 2³² segments.
    public func encrypt(_ plaintext: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        var encrypter = try makeEncrypter(associatedData: associatedData)
        var out = try encrypter.update(plaintext)
        out += try encrypter.finish()
        return out
    }

    /// Decrypts a whole (small) ciphertext in one call.
    /// - Parameters:
    ///   - ciphertext: a complete streaming ciphertext.
    ///   - associatedData: the associated data it was encrypted with.
    /// - Returns: the plaintext.
    /// - Throws: the errors of `StreamingDecrypter.update` and `finish`.
    public func decrypt(_ ciphertext: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        var decrypter = try makeDecrypter(associatedData: associatedData)
        var out = try decrypter.update(ciphertext)
        out += try decrypter.finish()
        return out
    }
}
