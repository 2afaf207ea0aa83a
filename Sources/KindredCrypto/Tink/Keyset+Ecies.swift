import Crypto

/// Creating ECIES keysets and deriving their public keysets, as Tink's
/// `ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM` template and `getPublicKeysetHandle()` do.
/// Spec: `docs/wire-formats.md`, "EciesAeadHkdfPrivateKey" and "Public keysets".
extension Keyset {
    /// A new private keyset holding one fresh P-256 key with the
    /// `ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM` parameters.
    /// - Parameter outputPrefixType: `.tink` (the template's default), `.raw`, `.legacy` or `.crunchy`.
    /// - Returns: a keyset (ASYMMETRIC_PRIVATE) whose only key is enabled and primary.
    /// - Precondition: `outputPrefixType` is not `.unknown`.
    public static func generateECIESP256(outputPrefixType: OutputPrefixType = .tink) -> Keyset {
        precondition(outputPrefixType != .unknown, "a new key needs a known output prefix type")
        let key = EciesAeadHkdfPrivateKey(params: .p256HkdfSha256Aes128Gcm, privateKey: P256.KeyAgreement.PrivateKey())
        let id = Keyset(primaryKeyID: 0, keys: []).newKeyID()
        return Keyset(primaryKeyID: id, keys: [eciesPrivateEntry(key, keyID: id, outputPrefixType: outputPrefixType)])
    }

    /// A private keyset holding one given ECIES key (known answers and imports).
    static func eciesP256(privateScalar: [UInt8], params: EciesAeadHkdfParams = .p256HkdfSha256Aes128Gcm, keyID: UInt32,
                          outputPrefixType: OutputPrefixType) throws(KindredCryptoError) -> Keyset {
        let privateKey: P256.KeyAgreement.PrivateKey
        do {
            privateKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: privateScalar)
        } catch {
            throw .invalidKeySize(expected: P256Coordinate.size, actual: privateScalar.count)
        }
        let key = EciesAeadHkdfPrivateKey(params: params, privateKey: privateKey)
        return Keyset(primaryKeyID: keyID, keys: [eciesPrivateEntry(key, keyID: keyID, outputPrefixType: outputPrefixType)])
    }

    private static func eciesPrivateEntry(_ key: EciesAeadHkdfPrivateKey, keyID: UInt32, outputPrefixType: OutputPrefixType) -> Key {
        Key(keyData: KeyData(typeURL: EciesAeadHkdfPrivateKey.typeURL, value: key.serialized(), keyMaterialType: .asymmetricPrivate),
            status: .enabled, keyID: keyID, outputPrefixType: outputPrefixType)
    }

    /// The public keyset of a private ECIES keyset: every key replaced by its
    /// `EciesAeadHkdfPublicKey` (ASYMMETRIC_PUBLIC, coordinates written as 33 bytes), with the
    /// same ids, statuses, prefix types and primary.
    /// - Returns: the public keyset, safe to share.
    /// - Throws: `.unsupportedKeyType` for a key that is not an ECIES private key, and the errors
    ///   of parsing each private key (`.invalidKeyset`, `.invalidParameters`, `.malformed`, …).
    public func publicKeyset() throws(KindredCryptoError) -> Keyset {
        var publicKeys: [Key] = []
        for key in keys {
            guard key.keyData.typeURL == EciesAeadHkdfPrivateKey.typeURL else {
                throw .unsupportedKeyType(typeURL: key.keyData.typeURL)
            }
            let privateKey = try EciesAeadHkdfPrivateKey(serialized: key.keyData.value)
            let data = KeyData(typeURL: EciesAeadHkdfPublicKey.typeURL, value: privateKey.publicKey.serialized(),
                               keyMaterialType: .asymmetricPublic)
            publicKeys.append(Key(keyData: data, status: key.status, keyID: key.keyID, outputPrefixType: key.outputPrefixType))
        }
        return Keyset(primaryKeyID: primaryKeyID, keys: publicKeys)
    }
}
