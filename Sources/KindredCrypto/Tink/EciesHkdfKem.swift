import Crypto

/// Tink's ECIES-HKDF key encapsulation on P-256 with uncompressed points
/// (`EciesHkdfSenderKem` / `EciesHkdfRecipientKem`).
///
/// KEM bytes are the ephemeral public point `0x04 ‖ X ‖ Y` (65 bytes). The DEM key is
/// `HKDF-SHA256(salt: hkdf_salt, ikm: KEM bytes ‖ shared X coordinate, info: context info)`.
/// Spec: `docs/wire-formats.md`, "ECIES key derivation".
enum EciesHkdfKem {
    /// The length of an uncompressed P-256 point.
    static let kemSize = 65

    /// Encapsulates a fresh DEM key for a recipient with the given ephemeral key.
    /// - Parameters:
    ///   - recipient: the recipient's public point.
    ///   - ephemeral: the sender's one-time private key.
    ///   - salt: `hkdf_salt`.
    ///   - info: the context info.
    ///   - keySize: the DEM key length.
    /// - Returns: the KEM bytes and the DEM key.
    /// - Throws: `.invalidPublicKey` if the key agreement fails.
    static func encapsulate(to recipient: P256.KeyAgreement.PublicKey, ephemeral: P256.KeyAgreement.PrivateKey,
                            salt: [UInt8], info: [UInt8], keySize: Int) throws(KindredCryptoError) -> (kem: [UInt8], key: [UInt8]) {
        let kem = Array(ephemeral.publicKey.x963Representation)
        let shared = try sharedSecret(ephemeral, recipient)
        return (kem, deriveKey(kem: kem, sharedSecret: shared, salt: salt, info: info, keySize: keySize))
    }

    /// Recovers the DEM key from KEM bytes.
    /// - Parameters:
    ///   - kem: 65 bytes, `0x04 ‖ X ‖ Y`.
    ///   - recipient: the recipient's private key.
    ///   - salt: `hkdf_salt`.
    ///   - info: the context info.
    ///   - keySize: the DEM key length.
    /// - Returns: the DEM key.
    /// - Throws: `.authenticationFailed` when the KEM bytes are not an uncompressed point on P-256
    ///   (the ciphertext was modified or is not an ECIES ciphertext).
    static func decapsulate(_ kem: ArraySlice<UInt8>, recipient: P256.KeyAgreement.PrivateKey,
                            salt: [UInt8], info: [UInt8], keySize: Int) throws(KindredCryptoError) -> [UInt8] {
        guard kem.count == kemSize, kem.first == 0x04 else { throw .authenticationFailed }
        let point: P256.KeyAgreement.PublicKey
        let shared: [UInt8]
        do {
            point = try P256.KeyAgreement.PublicKey(x963Representation: kem)
            shared = try sharedSecret(recipient, point)
        } catch {
            throw .authenticationFailed
        }
        return deriveKey(kem: Array(kem), sharedSecret: shared, salt: salt, info: info, keySize: keySize)
    }

    private static func sharedSecret(_ privateKey: P256.KeyAgreement.PrivateKey,
                                     _ publicKey: P256.KeyAgreement.PublicKey) throws(KindredCryptoError) -> [UInt8] {
        do {
            let secret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
            return secret.withUnsafeBytes { Array($0) }
        } catch {
            throw .invalidPublicKey
        }
    }

    /// `HKDF-SHA256(salt, ikm: kem ‖ sharedSecret, info)` truncated to `keySize` bytes.
    static func deriveKey(kem: [UInt8], sharedSecret: [UInt8], salt: [UInt8], info: [UInt8], keySize: Int) -> [UInt8] {
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: kem + sharedSecret),
                                         salt: salt, info: info, outputByteCount: keySize)
        return key.withUnsafeBytes { Array($0) }
    }
}
