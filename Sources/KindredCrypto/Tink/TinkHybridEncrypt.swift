import Crypto

/// Tink's hybrid encryption for ECIES-P256-HKDF-AES-GCM public keysets, byte-compatible with
/// `publicKeysetHandle.getPrimitive(HybridEncrypt.class)` in Java Tink.
///
/// Ciphertext: `output prefix ‖ ephemeral point (65 bytes, 0x04 ‖ X ‖ Y) ‖ 12-byte IV ‖
/// AES-GCM ciphertext ‖ 16-byte tag`; the DEM uses empty associated data.
/// Spec: `docs/wire-formats.md`, "Hybrid ciphertext".
public struct TinkHybridEncrypt: Sendable {
    private let primary: PrimitiveSet<EciesAeadHkdfPublicKey>.Entry

    /// Builds the primitive from a public keyset (see `Keyset.publicKeyset()`).
    /// - Parameter publicKeyset: a keyset of `EciesAeadHkdfPublicKey` keys with an enabled primary.
    /// - Throws: `.invalidKeyset` (no enabled primary, a private keyset, bad version),
    ///   `.unsupportedKeyType`, `.invalidParameters`, `.invalidPublicKey`, or `.malformed`.
    public init(publicKeyset: Keyset) throws(KindredCryptoError) {
        if publicKeyset.keys.contains(where: { $0.status == .enabled && $0.keyData.typeURL == EciesAeadHkdfPrivateKey.typeURL }) {
            throw .invalidKeyset(reason: "hybrid encryption needs the public keyset, not the private one")
        }
        let keys = try PrimitiveSet(keyset: publicKeyset, typeURLs: [EciesAeadHkdfPublicKey.typeURL]) {
            (data) throws(KindredCryptoError) in try EciesAeadHkdfPublicKey(serialized: data.value[...])
        }
        primary = keys.primary
    }

    /// Encrypts to the primary key with a fresh ephemeral key and IV.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - contextInfo: bound into the key derivation (HKDF info); the same bytes are needed to decrypt.
    /// - Returns: `prefix ‖ ephemeral point ‖ IV ‖ ciphertext ‖ tag`.
    /// - Throws: never in practice (the key was validated at init); typed for uniformity.
    public func encrypt(_ plaintext: [UInt8], contextInfo: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        let iv = SecureRandom.bytes(AesGcmCipher.ivSize)
        return try encrypt(plaintext, contextInfo: contextInfo, ephemeral: P256.KeyAgreement.PrivateKey(), iv: iv)
    }

    /// Encrypts with a given ephemeral private scalar and IV (known-answer tests only).
    func encrypt(_ plaintext: [UInt8], contextInfo: [UInt8], ephemeralScalar: [UInt8], iv: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        let ephemeral: P256.KeyAgreement.PrivateKey
        do {
            ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: ephemeralScalar)
        } catch {
            throw .invalidKeySize(expected: P256Coordinate.size, actual: ephemeralScalar.count)
        }
        return try encrypt(plaintext, contextInfo: contextInfo, ephemeral: ephemeral, iv: iv)
    }

    private func encrypt(_ plaintext: [UInt8], contextInfo: [UInt8], ephemeral: P256.KeyAgreement.PrivateKey,
                         iv: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        let key = primary.primitive
        let (kem, demKey) = try EciesHkdfKem.encapsulate(to: key.point, ephemeral: ephemeral, salt: key.params.hkdfSalt,
                                                         info: contextInfo, keySize: key.params.demKeySize)
        return primary.prefix + kem + (try AesGcmCipher.seal(plaintext, key: demKey, iv: iv, associatedData: []))
    }
}
