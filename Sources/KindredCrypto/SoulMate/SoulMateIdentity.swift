import Crypto

/// A SoulMate user's X25519 identity key pair. The private key stays on the device
/// (in the keychain); the public key is published as standard Base64 of its 32 raw bytes.
/// Spec: `docs/wire-formats.md`, "SoulMate chat envelopes".
public struct SoulMateIdentity: Sendable {
    /// The private key.
    public let privateKey: Curve25519.KeyAgreement.PrivateKey

    /// Generates a new identity.
    public init() {
        privateKey = Curve25519.KeyAgreement.PrivateKey()
    }

    /// Restores an identity from its 32 raw private-key bytes.
    /// - Parameter rawPrivateKey: the bytes `rawPrivateKey` returned.
    /// - Throws: `KindredCryptoError.invalidKeySize` when not 32 bytes.
    public init(rawPrivateKey: [UInt8]) throws(KindredCryptoError) {
        guard rawPrivateKey.count == 32 else { throw .invalidKeySize(expected: 32, actual: rawPrivateKey.count) }
        do {
            privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: rawPrivateKey)
        } catch {
            throw .invalidKeySize(expected: 32, actual: rawPrivateKey.count)
        }
    }

    /// The 32 raw private-key bytes, for the device's secure store.
    public var rawPrivateKey: [UInt8] { Array(privateKey.rawRepresentation) }

    /// The public key as SoulMate publishes it: standard Base64 (padded) of 32 raw bytes.
    public var publicKeyBase64: String {
        Base64.encode(Array(privateKey.publicKey.rawRepresentation), alphabet: .standard)
    }

    /// Parses a published public key.
    /// - Parameter base64: standard Base64 of 32 bytes.
    /// - Returns: the key.
    /// - Throws: `KindredCryptoError.malformed` or `.invalidKeySize`.
    public static func publicKey(fromBase64 base64: String) throws(KindredCryptoError) -> Curve25519.KeyAgreement.PublicKey {
        guard base64.utf8.count <= 64 else { throw .tooLong(format: "soulmate-public-key", limit: 64) }
        let raw = try Base64.decode(base64, alphabet: .standard, format: "soulmate-public-key")
        guard raw.count == 32 else { throw .invalidKeySize(expected: 32, actual: raw.count) }
        do {
            return try Curve25519.KeyAgreement.PublicKey(rawRepresentation: raw)
        } catch {
            throw .invalidPublicKey
        }
    }
}
