/// Creating AES-GCM keysets: Tink's `AES256_GCM` template (`AesGcmKeyFormat { key_size: 32 }`).
/// Spec: `docs/wire-formats.md`, "AesGcmKey".
extension Keyset {
    /// A new keyset holding one fresh random AES-256-GCM key, as Tink's `AES256_GCM` template makes it.
    /// - Parameter outputPrefixType: `.tink` (the template's default), `.raw`, `.legacy` or `.crunchy`.
    /// - Returns: a keyset whose only key is enabled and primary.
    /// - Precondition: `outputPrefixType` is not `.unknown`.
    public static func generateAES256GCM(outputPrefixType: OutputPrefixType = .tink) -> Keyset {
        var keyset = Keyset(primaryKeyID: 0, keys: [])
        keyset.addAES256GCMKey(outputPrefixType: outputPrefixType, makePrimary: true)
        return keyset
    }

    /// A keyset holding one given AES-256-GCM key, for known-answer tests and imports.
    /// - Parameters:
    ///   - key: the 32-byte AES key.
    ///   - keyID: the key id written into TINK/LEGACY prefixes.
    ///   - outputPrefixType: how ciphertexts are prefixed.
    /// - Returns: a keyset whose only key is enabled and primary.
    /// - Throws: `.invalidKeySize` unless `key` is 32 bytes; `.invalidKeyset` for `.unknown` prefix type.
    public static func aes256GCM(key: [UInt8], keyID: UInt32, outputPrefixType: OutputPrefixType = .tink) throws(KindredCryptoError) -> Keyset {
        guard key.count == 32 else { throw .invalidKeySize(expected: 32, actual: key.count) }
        guard outputPrefixType != .unknown else { throw .invalidKeyset(reason: "output prefix type UNKNOWN") }
        return Keyset(primaryKeyID: keyID, keys: [aesGcmEntry(key: key, keyID: keyID, outputPrefixType: outputPrefixType)])
    }

    /// Adds a fresh random AES-256-GCM key (key rotation).
    /// - Parameters:
    ///   - outputPrefixType: how ciphertexts of the new key are prefixed (not `.unknown`).
    ///   - makePrimary: whether the new key becomes the primary (encrypting) key.
    /// - Returns: the new key's id.
    /// - Precondition: `outputPrefixType` is not `.unknown`.
    @discardableResult
    public mutating func addAES256GCMKey(outputPrefixType: OutputPrefixType = .tink, makePrimary: Bool) -> UInt32 {
        precondition(outputPrefixType != .unknown, "a new key needs a known output prefix type")
        let key = SecureRandom.bytes(32)
        let id = newKeyID()
        keys.append(Self.aesGcmEntry(key: key, keyID: id, outputPrefixType: outputPrefixType))
        if makePrimary { primaryKeyID = id }
        return id
    }

    private static func aesGcmEntry(key: [UInt8], keyID: UInt32, outputPrefixType: OutputPrefixType) -> Key {
        Key(keyData: KeyData(typeURL: AesGcmKey.typeURL, value: AesGcmKey.serialized(keyValue: key), keyMaterialType: .symmetric),
                   status: .enabled, keyID: keyID, outputPrefixType: outputPrefixType)
    }
}
