extension Keyset {
    /// A new one-key keyset from Tink's `AES256_GCM_HKDF_1MB` template, for `TinkStreamingAEAD`.
    ///
    /// The key is a random 32-byte key value with 1 MiB ciphertext segments, 32-byte derived
    /// keys and HKDF-SHA256; it is enabled, RAW (as Tink requires for streaming keys) and primary.
    /// Spec: `docs/wire-formats.md`, "Streaming AEAD (AES256_GCM_HKDF_1MB)", "Key".
    /// - Returns: the keyset; `serialized()` gives what Tink's `BinaryKeysetWriter` writes.
    public static func generateAES256GCMHKDF1MB() -> Keyset {
        generateAesGcmHkdfStreaming(.aes256GCMHKDF1MB, keySize: 32)
    }

    /// A new one-key AES-GCM-HKDF streaming keyset with any parameters (tests use small segments).
    static func generateAesGcmHkdfStreaming(_ parameters: AesGcmHkdfStreamingKey.Parameters, keySize: Int) -> Keyset {
        let keyValue = SecureRandom.bytes(keySize)
        let key = AesGcmHkdfStreamingKey(parameters: parameters, keyValue: keyValue)
        let id = Keyset(primaryKeyID: 0, keys: []).newKeyID()
        let entry = Key(keyData: KeyData(typeURL: AesGcmHkdfStreamingKey.typeURL, value: key.serialized(), keyMaterialType: .symmetric),
                        status: .enabled, keyID: id, outputPrefixType: .raw)
        return Keyset(primaryKeyID: id, keys: [entry])
    }
}
