/// Tink's `AesGcmKey` proto, the key material of an AES-GCM AEAD key in a keyset.
///
/// ```
/// message AesGcmKey { uint32 version = 1; bytes key_value = 3; }   // SYMMETRIC
/// ```
/// Type URL `type.googleapis.com/google.crypto.tink.AesGcmKey`; `version` must be 0 and the key
/// 16 or 32 bytes, as Tink's `AesGcmKeyManager` requires.
/// Spec: `docs/wire-formats.md`, "AesGcmKey".
struct AesGcmKey: Equatable, Sendable {
    /// The type URL of `AesGcmKey` key data.
    static let typeURL = "type.googleapis.com/google.crypto.tink.AesGcmKey"
    /// The key lengths Tink accepts for AES-GCM (AES-128 and AES-256).
    static let acceptedSizes: Set<Int> = [16, 32]

    /// `key_value`: the raw AES key.
    var keyValue: [UInt8]

    /// Wraps a raw AES key.
    /// - Parameter keyValue: 16 or 32 bytes.
    /// - Throws: `KindredCryptoError.invalidKeySize` for any other length.
    init(keyValue: [UInt8]) throws(KindredCryptoError) {
        guard Self.acceptedSizes.contains(keyValue.count) else { throw .invalidKeySize(expected: 32, actual: keyValue.count) }
        self.keyValue = keyValue
    }

    /// Parses the serialized proto (the `KeyData.value` of an AES-GCM key).
    /// - Parameter bytes: the protobuf bytes.
    /// - Throws: `.malformed`/`.truncated` for bad protobuf, `.invalidKeyset` for a version other
    ///   than 0, `.invalidKeySize` for a key that is not 16 or 32 bytes.
    init(serialized bytes: [UInt8]) throws(KindredCryptoError) {
        let format = "AesGcmKey"
        var reader = ProtobufReader(bytes, format: format)
        var version: UInt32 = 0
        var key: [UInt8] = []
        while let (field, value) = try reader.next() {
            switch field {
            case 1: version = try value.asUInt32(format, "version")
            case 3: key = Array(try value.asBytes(format, "key_value"))
            default: continue
            }
        }
        guard version == 0 else { throw .invalidKeyset(reason: "AesGcmKey version \(version) is not supported") }
        try self.init(keyValue: key)
    }

    /// The proto bytes as protobuf-java writes them (`version` 0 is omitted).
    func serialized() -> [UInt8] {
        Self.serialized(keyValue: keyValue)
    }

    /// The proto bytes for a key value that is already known to be valid.
    static func serialized(keyValue: [UInt8]) -> [UInt8] {
        var w = ProtobufWriter()
        w.bytes(3, keyValue)
        return w.bytes
    }
}
