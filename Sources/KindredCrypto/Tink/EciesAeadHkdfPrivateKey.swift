import Crypto

/// Tink's `EciesAeadHkdfPrivateKey` proto (key material type ASYMMETRIC_PRIVATE).
///
/// ```
/// message EciesAeadHkdfPrivateKey { uint32 version = 1; EciesAeadHkdfPublicKey public_key = 2; bytes key_value = 3; }
/// ```
/// `key_value` is the P-256 scalar, written as 33 bytes (leading zero), read at any length.
/// Spec: `docs/wire-formats.md`, "EciesAeadHkdfPrivateKey".
struct EciesAeadHkdfPrivateKey: Sendable {
    /// The type URL of ECIES private key data.
    static let typeURL = "type.googleapis.com/google.crypto.tink.EciesAeadHkdfPrivateKey"

    /// The matching public key and its parameters.
    let publicKey: EciesAeadHkdfPublicKey
    /// The recipient's private scalar.
    let privateKey: P256.KeyAgreement.PrivateKey

    /// Creates a private key; its public key is derived from the scalar.
    init(params: EciesAeadHkdfParams, privateKey: P256.KeyAgreement.PrivateKey) {
        self.publicKey = EciesAeadHkdfPublicKey(params: params, point: privateKey.publicKey)
        self.privateKey = privateKey
    }

    /// Parses and checks a private key proto.
    /// - Parameter bytes: the serialized proto (a `KeyData.value`).
    /// - Throws: `.malformed`/`.truncated` for bad protobuf; `.invalidKeyset` for a version other
    ///   than 0, a scalar outside 1…n−1, or a public key that does not belong to the scalar;
    ///   `.invalidKeySize` for a scalar longer than 32 significant bytes; the errors of
    ///   `EciesAeadHkdfPublicKey(serialized:)`.
    init(serialized bytes: [UInt8]) throws(KindredCryptoError) {
        let format = "EciesAeadHkdfPrivateKey"
        var version: UInt32 = 0
        var publicBytes: ArraySlice<UInt8> = []
        var scalar: ArraySlice<UInt8> = []
        var reader = ProtobufReader(bytes, format: format)
        while let (field, value) = try reader.next() {
            switch field {
            case 1: version = try value.asUInt32(format, "version")
            case 2: publicBytes = try value.asBytes(format, "public_key")
            case 3: scalar = try value.asBytes(format, "key_value")
            default: continue
            }
        }
        guard version == 0 else { throw .invalidKeyset(reason: "EciesAeadHkdfPrivateKey version \(version) is not supported") }
        let publicKey = try EciesAeadHkdfPublicKey(serialized: publicBytes)
        guard let raw = P256Coordinate.decode(scalar) else {
            throw .invalidKeySize(expected: P256Coordinate.size, actual: scalar.drop { $0 == 0 }.count)
        }
        let privateKey: P256.KeyAgreement.PrivateKey
        do {
            privateKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: raw)
        } catch {
            throw .invalidKeyset(reason: "the ECIES private key is not a valid P-256 scalar")
        }
        guard privateKey.publicKey.x963Representation == publicKey.point.x963Representation else {
            throw .invalidKeyset(reason: "the ECIES public key does not match the private key")
        }
        self.publicKey = publicKey
        self.privateKey = privateKey
    }

    /// The proto bytes as Java Tink writes them: version 0 omitted, the scalar as 33 bytes.
    func serialized() -> [UInt8] {
        var w = ProtobufWriter()
        w.message(2, publicKey.serialized())
        w.bytes(3, P256Coordinate.encode(privateKey.rawRepresentation))
        return w.bytes
    }
}
