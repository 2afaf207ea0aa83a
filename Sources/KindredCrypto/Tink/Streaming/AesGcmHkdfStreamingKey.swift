/// Tink's `AesGcmHkdfStreamingKey` proto: the key material and parameters of the
/// AES-GCM-HKDF streaming AEAD.
///
/// ```
/// message AesGcmHkdfStreamingParams { uint32 ciphertext_segment_size = 1;
///                                     uint32 derived_key_size = 2; HashType hkdf_hash_type = 3; }
/// message AesGcmHkdfStreamingKey    { uint32 version = 1; AesGcmHkdfStreamingParams params = 2;
///                                     bytes key_value = 3; }
/// ```
/// Spec: `docs/wire-formats.md`, "Streaming AEAD (AES256_GCM_HKDF_1MB)", "Key".
struct AesGcmHkdfStreamingKey: Equatable, Sendable {
    /// `type.googleapis.com/google.crypto.tink.AesGcmHkdfStreamingKey`.
    static let typeURL = "type.googleapis.com/google.crypto.tink.AesGcmHkdfStreamingKey"

    /// The largest ciphertext segment Kindred accepts (16 MiB): decryption holds one segment
    /// in memory, so this bounds memory whatever a keyset says. Tink's own templates use 4 KiB and 1 MiB.
    static let maximumCiphertextSegmentSize = 16 << 20

    /// The hash function HKDF uses (`google.crypto.tink.HashType`).
    enum HashType: UInt32, Equatable, Sendable {
        case sha1 = 1, sha256 = 3, sha512 = 4
    }

    /// `AesGcmHkdfStreamingParams`.
    struct Parameters: Equatable, Sendable {
        /// Size of every ciphertext segment, including its 16-byte tag (the first one also
        /// includes the header).
        var ciphertextSegmentSize: Int
        /// Size of the AES-GCM key derived for each stream: 16 or 32.
        var derivedKeySize: Int
        /// The hash of HKDF.
        var hkdfHashType: HashType

        /// The parameters of Tink's `AES256_GCM_HKDF_1MB` template.
        static let aes256GCMHKDF1MB = Parameters(ciphertextSegmentSize: 1 << 20, derivedKeySize: 32, hkdfHashType: .sha256)
    }

    /// The parameters.
    var parameters: Parameters
    /// The input keying material of HKDF (`key_value`).
    var keyValue: [UInt8]

    /// Checks the key as Tink's `AesGcmHkdfStreamingParameters.Builder` does, plus Kindred's
    /// segment-size bound.
    /// - Throws: `.invalidParameters`, `.invalidKeySize` or `.parametersOutOfBounds`.
    func validate() throws(KindredCryptoError) {
        let p = parameters
        guard p.derivedKeySize == 16 || p.derivedKeySize == 32 else {
            throw .invalidParameters("derived key size must be 16 or 32, not \(p.derivedKeySize)")
        }
        guard keyValue.count >= max(16, p.derivedKeySize) else {
            throw .invalidKeySize(expected: max(16, p.derivedKeySize), actual: keyValue.count)
        }
        guard p.ciphertextSegmentSize > p.derivedKeySize + 24 else {
            throw .invalidParameters("ciphertext segment size must be at least \(p.derivedKeySize + 25), not \(p.ciphertextSegmentSize)")
        }
        guard p.ciphertextSegmentSize <= Self.maximumCiphertextSegmentSize else {
            throw .parametersOutOfBounds("ciphertext segment size \(p.ciphertextSegmentSize) exceeds Kindred's limit of \(Self.maximumCiphertextSegmentSize)")
        }
    }

    /// Serializes the key proto as protobuf-java does (version 0 is omitted; params always present).
    /// - Returns: the bytes that go into `KeyData.value`.
    func serialized() -> [UInt8] {
        var params = ProtobufWriter()
        params.uint(1, UInt64(parameters.ciphertextSegmentSize))
        params.uint(2, UInt64(parameters.derivedKeySize))
        params.uint(3, UInt64(parameters.hkdfHashType.rawValue))
        var key = ProtobufWriter()
        key.message(2, params.bytes, always: true)
        key.bytes(3, keyValue)
        return key.bytes
    }

    /// Parses and validates a serialized `AesGcmHkdfStreamingKey`.
    /// - Parameter bytes: `KeyData.value`.
    /// - Throws: `.malformed`/`.truncated` for bad protobuf, `.invalidKeyset` for a version
    ///   other than 0, and the errors of `validate()`.
    init(serialized bytes: [UInt8]) throws(KindredCryptoError) {
        let format = "AesGcmHkdfStreamingKey"
        var reader = ProtobufReader(bytes, format: format)
        var version: UInt32 = 0
        var params = Parameters(ciphertextSegmentSize: 0, derivedKeySize: 0, hkdfHashType: .sha256)
        var hash: UInt32 = 0
        var keyValue: [UInt8] = []
        while let (field, value) = try reader.next() {
            switch field {
            case 1: version = try value.asUInt32(format, "version")
            case 2: (params, hash) = try Self.parseParameters(value.asBytes(format, "params"))
            case 3: keyValue = Array(try value.asBytes(format, "key_value"))
            default: continue
            }
        }
        guard version == 0 else { throw .invalidKeyset(reason: "AesGcmHkdfStreamingKey version \(version) is not supported") }
        guard let hashType = HashType(rawValue: hash) else {
            throw .invalidParameters("HKDF hash type \(hash) is not SHA1, SHA256 or SHA512")
        }
        params.hkdfHashType = hashType
        self.init(parameters: params, keyValue: keyValue)
        try validate()
    }

    /// Creates a key from its parts (not validated; call `validate()`).
    init(parameters: Parameters, keyValue: [UInt8]) {
        self.parameters = parameters
        self.keyValue = keyValue
    }

    private static func parseParameters(_ bytes: ArraySlice<UInt8>) throws(KindredCryptoError) -> (Parameters, UInt32) {
        let format = "AesGcmHkdfStreamingParams"
        var reader = ProtobufReader(bytes, format: format)
        var segment: UInt32 = 0
        var derived: UInt32 = 0
        var hash: UInt32 = 0
        while let (field, value) = try reader.next() {
            switch field {
            case 1: segment = try value.asUInt32(format, "ciphertext_segment_size")
            case 2: derived = try value.asUInt32(format, "derived_key_size")
            case 3: hash = try value.asUInt32(format, "hkdf_hash_type")
            default: continue
            }
        }
        return (Parameters(ciphertextSegmentSize: Int(segment), derivedKeySize: Int(derived), hkdfHashType: .sha256), hash)
    }
}
