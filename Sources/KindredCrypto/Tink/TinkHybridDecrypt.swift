/// Tink's hybrid decryption for ECIES-P256-HKDF-AES-GCM private keysets, byte-compatible with
/// `privateKeysetHandle.getPrimitive(HybridDecrypt.class)` in Java Tink.
///
/// Keys whose output prefix starts the ciphertext are tried first, then every RAW key.
/// Spec: `docs/wire-formats.md`, "Hybrid ciphertext".
public struct TinkHybridDecrypt: Sendable {
    private let keys: PrimitiveSet<EciesAeadHkdfPrivateKey>
    private static let format = "tink hybrid"

    /// Builds the primitive from a private keyset.
    /// - Parameter privateKeyset: a keyset of `EciesAeadHkdfPrivateKey` keys with an enabled primary.
    /// - Throws: `.invalidKeyset` (no enabled primary, bad version, mismatched public key),
    ///   `.unsupportedKeyType`, `.invalidParameters`, `.invalidPublicKey`, `.invalidKeySize`, or `.malformed`.
    public init(privateKeyset: Keyset) throws(KindredCryptoError) {
        keys = try PrimitiveSet(keyset: privateKeyset, typeURLs: [EciesAeadHkdfPrivateKey.typeURL]) {
            (data) throws(KindredCryptoError) in try EciesAeadHkdfPrivateKey(serialized: data.value)
        }
    }

    /// Decrypts a ciphertext made for any enabled key of the keyset.
    /// - Parameters:
    ///   - ciphertext: `prefix ‖ ephemeral point ‖ IV ‖ ciphertext ‖ tag`.
    ///   - contextInfo: the bytes given at encryption.
    /// - Returns: the plaintext.
    /// - Throws: `.noMatchingKey` when no key's prefix matches and there is no RAW key,
    ///   `.truncated` when too short for every candidate key, otherwise `.authenticationFailed`
    ///   (wrong key or context info, modified ciphertext, or an ephemeral point not on the curve).
    public func decrypt(_ ciphertext: [UInt8], contextInfo: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        try keys.decrypt(ciphertext) { (key, body) throws(KindredCryptoError) in
            let params = key.publicKey.params
            guard body.count >= EciesHkdfKem.kemSize + AesGcmCipher.ivSize + AesGcmCipher.tagSize else {
                throw .truncated(format: Self.format)
            }
            let kemEnd = body.startIndex + EciesHkdfKem.kemSize
            let demKey = try EciesHkdfKem.decapsulate(body[..<kemEnd], recipient: key.privateKey, salt: params.hkdfSalt,
                                                      info: contextInfo, keySize: params.demKeySize)
            return try AesGcmCipher.open(body[kemEnd...], key: demKey, associatedData: [], format: Self.format)
        }
    }
}
