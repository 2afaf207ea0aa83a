import Crypto

/// Tink's `EciesAeadHkdfPublicKey` proto (key material type ASYMMETRIC_PUBLIC).
///
/// ```
/// message EciesAeadHkdfPublicKey { uint32 version = 1; EciesAeadHkdfParams params = 2; bytes x = 3; bytes y = 4; }
/// ```
/// `x` and `y` are written as 33 bytes (leading zero), read at any length; see `P256Coordinate`.
/// Spec: `docs/wire-formats.md`, "EciesAeadHkdfPublicKey".
struct EciesAeadHkdfPublicKey: Sendable {
    /// The type URL of ECIES public key data.
    static let typeURL = "type.googleapis.com/google.crypto.tink.EciesAeadHkdfPublicKey"

    /// The KEM and DEM parameters.
    let params: EciesAeadHkdfParams
    /// The recipient's public point.
    let point: P256.KeyAgreement.PublicKey

    /// Creates a public key.
    init(params: EciesAeadHkdfParams, point: P256.KeyAgreement.PublicKey) {
        self.params = params
        self.point = point
    }

    /// Parses and checks a public key proto.
    /// - Parameter bytes: the serialized proto (a `KeyData.value`, or a private key's `public_key`).
    /// - Throws: `.malformed`/`.truncated` for bad protobuf, `.invalidKeyset` for a version other
    ///   than 0, the errors of `EciesAeadHkdfParams(serialized:)`, and `.invalidPublicKey` when
    ///   `(x, y)` is not a point on P-256.
    init(serialized bytes: ArraySlice<UInt8>) throws(KindredCryptoError) {
        let format = "EciesAeadHkdfPublicKey"
        var version: UInt32 = 0
        var paramBytes: ArraySlice<UInt8> = []
        var x: ArraySlice<UInt8> = [], y: ArraySlice<UInt8> = []
        var reader = ProtobufReader(bytes, format: format)
        while let (field, value) = try reader.next() {
            switch field {
            case 1: version = try value.asUInt32(format, "version")
            case 2: paramBytes = try value.asBytes(format, "params")
            case 3: x = try value.asBytes(format, "x")
            case 4: y = try value.asBytes(format, "y")
            default: continue
            }
        }
        guard version == 0 else { throw .invalidKeyset(reason: "EciesAeadHkdfPublicKey version \(version) is not supported") }
        let params = try EciesAeadHkdfParams(serialized: paramBytes)
        guard let x = P256Coordinate.decode(x), let y = P256Coordinate.decode(y) else { throw .invalidPublicKey }
        do {
            point = try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
        } catch {
            throw .invalidPublicKey
        }
        self.params = params
    }

    /// The proto bytes as Java Tink writes them: version 0 omitted, `x` and `y` as 33 bytes.
    func serialized() -> [UInt8] {
        let uncompressed = Array(point.x963Representation)
        var w = ProtobufWriter()
        w.message(2, params.serialized())
        w.bytes(3, P256Coordinate.encode(uncompressed[1...32]))
        w.bytes(4, P256Coordinate.encode(uncompressed[33...64]))
        return w.bytes
    }
}
