/// Tink's `EciesAeadHkdfParams`, restricted to what Kindred implements: NIST P-256, HKDF with
/// HMAC-SHA256, uncompressed points, and an AES-GCM DEM (16- or 32-byte key, empty associated data).
///
/// ```
/// message EciesAeadHkdfParams { EciesHkdfKemParams kem_params = 1; EciesAeadDemParams dem_params = 2;
///                               EcPointFormat ec_point_format = 3; }
/// message EciesHkdfKemParams  { EllipticCurveType curve_type = 1; HashType hkdf_hash_type = 2; bytes hkdf_salt = 11; }
/// message EciesAeadDemParams  { KeyTemplate aead_dem = 2; }
/// message KeyTemplate         { string type_url = 1; bytes value = 2; OutputPrefixType output_prefix_type = 3; }
/// message AesGcmKeyFormat     { uint32 key_size = 2; uint32 version = 3; }
/// ```
/// Spec: `docs/wire-formats.md`, "EciesAeadHkdfParams".
struct EciesAeadHkdfParams: Equatable, Sendable {
    /// `EllipticCurveType.NIST_P256`.
    static let curveNISTP256: UInt32 = 2
    /// `HashType.SHA256`.
    static let hashSHA256: UInt32 = 3
    /// `EcPointFormat.UNCOMPRESSED`.
    static let pointFormatUncompressed: UInt32 = 1

    /// `kem_params.hkdf_salt` (empty in Tink's templates).
    var hkdfSalt: [UInt8]
    /// The DEM's AES-GCM key size in bytes (16 for `…_AES128_GCM`).
    var demKeySize: Int

    /// The parameters of Tink's `ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM` template.
    static let p256HkdfSha256Aes128Gcm = EciesAeadHkdfParams(hkdfSalt: [], demKeySize: 16)

    /// Creates parameters.
    init(hkdfSalt: [UInt8], demKeySize: Int) {
        self.hkdfSalt = hkdfSalt
        self.demKeySize = demKeySize
    }

    /// The proto bytes as Java Tink writes them: the DEM template's output prefix type is always
    /// TINK, its `AesGcmKeyFormat.version` 0 is omitted, and an empty salt is omitted.
    func serialized() -> [UInt8] {
        var kem = ProtobufWriter()
        kem.uint(1, UInt64(Self.curveNISTP256))
        kem.uint(2, UInt64(Self.hashSHA256))
        kem.bytes(11, hkdfSalt)
        var format = ProtobufWriter()
        format.uint(2, UInt64(demKeySize))
        var template = ProtobufWriter()
        template.bytes(1, Array(AesGcmKey.typeURL.utf8))
        template.bytes(2, format.bytes)
        template.uint(3, UInt64(Keyset.OutputPrefixType.tink.rawValue))
        var dem = ProtobufWriter()
        dem.message(2, template.bytes)
        var params = ProtobufWriter()
        params.message(1, kem.bytes)
        params.message(2, dem.bytes)
        params.uint(3, UInt64(Self.pointFormatUncompressed))
        return params.bytes
    }

    /// Parses and checks the parameters.
    /// - Parameter bytes: the serialized `EciesAeadHkdfParams`.
    /// - Throws: `.malformed`/`.truncated` for bad protobuf; `.invalidParameters` for a curve,
    ///   hash or point format other than P-256, SHA-256, uncompressed; `.unsupportedKeyType`
    ///   for a DEM other than AES-GCM; `.invalidKeySize` for a DEM key size other than 16 or 32.
    init(serialized bytes: ArraySlice<UInt8>) throws(KindredCryptoError) {
        let format = "EciesAeadHkdfParams"
        var curve: UInt64 = 0, hash: UInt64 = 0, pointFormat: UInt64 = 0
        var salt: [UInt8] = []
        var demTemplate: ArraySlice<UInt8> = []
        var reader = ProtobufReader(bytes, format: format)
        while let (field, value) = try reader.next() {
            switch field {
            case 1:
                var kem = ProtobufReader(try value.asBytes(format, "kem_params"), format: format)
                while let (f, v) = try kem.next() {
                    switch f {
                    case 1: curve = try v.asVarint(format, "curve_type")
                    case 2: hash = try v.asVarint(format, "hkdf_hash_type")
                    case 11: salt = Array(try v.asBytes(format, "hkdf_salt"))
                    default: continue
                    }
                }
            case 2:
                var dem = ProtobufReader(try value.asBytes(format, "dem_params"), format: format)
                while let (f, v) = try dem.next() {
                    if f == 2 { demTemplate = try v.asBytes(format, "aead_dem") }
                }
            case 3: pointFormat = try value.asVarint(format, "ec_point_format")
            default: continue
            }
        }
        guard curve == UInt64(Self.curveNISTP256) else { throw .invalidParameters("ECIES curve \(curve) is not supported (only NIST_P256 = 2)") }
        guard hash == UInt64(Self.hashSHA256) else { throw .invalidParameters("ECIES HKDF hash \(hash) is not supported (only SHA256 = 3)") }
        guard pointFormat == UInt64(Self.pointFormatUncompressed) else {
            throw .invalidParameters("ECIES point format \(pointFormat) is not supported (only UNCOMPRESSED = 1)")
        }
        self.init(hkdfSalt: salt, demKeySize: try Self.parseDemTemplate(demTemplate))
    }

    /// Reads the DEM `KeyTemplate`; its output prefix type is ignored, as Java Tink does.
    private static func parseDemTemplate(_ bytes: ArraySlice<UInt8>) throws(KindredCryptoError) -> Int {
        let format = "EciesAeadHkdfParams"
        var typeURL: ArraySlice<UInt8> = []
        var value: ArraySlice<UInt8> = []
        var reader = ProtobufReader(bytes, format: format)
        while let (field, v) = try reader.next() {
            switch field {
            case 1: typeURL = try v.asBytes(format, "aead_dem.type_url")
            case 2: value = try v.asBytes(format, "aead_dem.value")
            default: continue
            }
        }
        guard typeURL.elementsEqual(AesGcmKey.typeURL.utf8) else {
            throw .unsupportedKeyType(typeURL: String(decoding: typeURL, as: UTF8.self))
        }
        var keySize: UInt32 = 0, version: UInt32 = 0
        var formatReader = ProtobufReader(value, format: format)
        while let (field, v) = try formatReader.next() {
            switch field {
            case 2: keySize = try v.asUInt32(format, "AesGcmKeyFormat.key_size")
            case 3: version = try v.asUInt32(format, "AesGcmKeyFormat.version")
            default: continue
            }
        }
        guard version == 0 else { throw .invalidParameters("AesGcmKeyFormat version \(version) is not supported") }
        guard AesGcmKey.acceptedSizes.contains(Int(keySize)) else { throw .invalidKeySize(expected: 16, actual: Int(keySize)) }
        return Int(keySize)
    }
}
