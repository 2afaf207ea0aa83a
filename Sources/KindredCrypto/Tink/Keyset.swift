/// A Tink keyset in its binary form: the bytes `CleartextKeysetHandle.write(handle,
/// BinaryKeysetWriter.withOutputStream(…))` produces and `CleartextKeysetHandle.read` accepts.
///
/// ```
/// message Keyset { uint32 primary_key_id = 1; repeated Key key = 2; }
/// message Keyset.Key { KeyData key_data = 1; KeyStatusType status = 2;
///                      uint32 key_id = 3; OutputPrefixType output_prefix_type = 4; }
/// message KeyData { string type_url = 1; bytes value = 2; KeyMaterialType key_material_type = 3; }
/// ```
/// Spec: `docs/wire-formats.md`, "Tink keysets".
public struct Keyset: Equatable, Sendable {
    /// `Keyset.primary_key_id`: the key that encrypts.
    public var primaryKeyID: UInt32
    /// `Keyset.key`, in order.
    public var keys: [Key]

    /// Creates a keyset.
    public init(primaryKeyID: UInt32, keys: [Key]) {
        self.primaryKeyID = primaryKeyID
        self.keys = keys
    }

    /// One key of a keyset (`Keyset.Key`).
    public struct Key: Equatable, Sendable {
        /// The key material and its type.
        public var keyData: KeyData
        /// Whether the key may be used.
        public var status: KeyStatus
        /// The key id, written into TINK-prefixed ciphertexts.
        public var keyID: UInt32
        /// How ciphertexts made with this key are prefixed.
        public var outputPrefixType: OutputPrefixType

        /// Creates a key entry.
        public init(keyData: KeyData, status: KeyStatus = .enabled, keyID: UInt32, outputPrefixType: OutputPrefixType) {
            self.keyData = keyData
            self.status = status
            self.keyID = keyID
            self.outputPrefixType = outputPrefixType
        }

        /// The prefix this key puts before its ciphertexts: `0x01 ‖ key id (big-endian)`
        /// for TINK, `0x00 ‖ key id` for LEGACY and CRUNCHY, nothing for RAW.
        public var outputPrefix: [UInt8] {
            let id = [UInt8(truncatingIfNeeded: keyID >> 24), UInt8(truncatingIfNeeded: keyID >> 16),
                      UInt8(truncatingIfNeeded: keyID >> 8), UInt8(truncatingIfNeeded: keyID)]
            switch outputPrefixType {
            case .tink: return [0x01] + id
            case .legacy, .crunchy: return [0x00] + id
            case .raw, .unknown: return []
            }
        }
    }

    /// `KeyData`: a type URL naming the key proto, its serialized bytes and its material type.
    public struct KeyData: Equatable, Sendable {
        /// For example `type.googleapis.com/google.crypto.tink.AesGcmKey`.
        public var typeURL: String
        /// The serialized key proto.
        public var value: [UInt8]
        /// Symmetric, asymmetric private or asymmetric public.
        public var keyMaterialType: KeyMaterialType

        /// Creates key data.
        public init(typeURL: String, value: [UInt8], keyMaterialType: KeyMaterialType) {
            self.typeURL = typeURL
            self.value = value
            self.keyMaterialType = keyMaterialType
        }
    }

    /// `KeyStatusType`.
    public enum KeyStatus: Equatable, Sendable {
        case unknown, enabled, disabled, destroyed
        /// A value outside the enum, kept so a keyset round-trips.
        case other(UInt32)

        init(rawValue: UInt32) {
            switch rawValue {
            case 0: self = .unknown
            case 1: self = .enabled
            case 2: self = .disabled
            case 3: self = .destroyed
            default: self = .other(rawValue)
            }
        }

        var rawValue: UInt32 {
            switch self {
            case .unknown: 0
            case .enabled: 1
            case .disabled: 2
            case .destroyed: 3
            case .other(let v): v
            }
        }
    }

    /// `OutputPrefixType`.
    public enum OutputPrefixType: UInt32, Equatable, Sendable {
        case unknown = 0, tink = 1, legacy = 2, raw = 3, crunchy = 4
    }

    /// `KeyData.KeyMaterialType`.
    public enum KeyMaterialType: UInt32, Equatable, Sendable {
        case unknown = 0, symmetric = 1, asymmetricPrivate = 2, asymmetricPublic = 3, remote = 4
    }
}

// MARK: - Binary codec

extension Keyset {
    /// The largest serialized keyset Kindred reads (1 MiB); anything larger is refused.
    public static let maximumSerializedSize = 1 << 20

    /// Serializes the keyset exactly as Tink's `BinaryKeysetWriter` does.
    /// - Returns: the protobuf bytes.
    public func serialized() -> [UInt8] {
        var w = ProtobufWriter()
        w.uint(1, UInt64(primaryKeyID))
        for key in keys {
            var kd = ProtobufWriter()
            kd.bytes(1, Array(key.keyData.typeURL.utf8))
            kd.bytes(2, key.keyData.value)
            kd.uint(3, UInt64(key.keyData.keyMaterialType.rawValue))
            var k = ProtobufWriter()
            k.message(1, kd.bytes, always: true)
            k.uint(2, UInt64(key.status.rawValue))
            k.uint(3, UInt64(key.keyID))
            k.uint(4, UInt64(key.outputPrefixType.rawValue))
            w.message(2, k.bytes, always: true)
        }
        return w.bytes
    }

    /// Parses a binary keyset.
    /// - Parameter bytes: the output of `BinaryKeysetWriter` (or `serialized()`).
    /// - Returns: the keyset. It is not checked for usability; primitives do that.
    /// - Throws: `KindredCryptoError.malformed`, `.truncated` or `.tooLong`.
    public init(serialized bytes: [UInt8]) throws(KindredCryptoError) {
        let format = "keyset"
        guard bytes.count <= Self.maximumSerializedSize else { throw .tooLong(format: format, limit: Self.maximumSerializedSize) }
        var reader = ProtobufReader(bytes, format: format)
        var primary: UInt32 = 0
        var keys: [Key] = []
        while let (field, value) = try reader.next() {
            switch field {
            case 1: primary = try value.asUInt32(format, "primary_key_id")
            case 2: keys.append(try Self.parseKey(value.asBytes(format, "key")))
            default: continue
            }
        }
        self.init(primaryKeyID: primary, keys: keys)
    }

    private static func parseKey(_ bytes: ArraySlice<UInt8>) throws(KindredCryptoError) -> Key {
        let format = "keyset"
        var reader = ProtobufReader(bytes, format: format)
        var keyData = KeyData(typeURL: "", value: [], keyMaterialType: .unknown)
        var status = KeyStatus.unknown
        var keyID: UInt32 = 0
        var prefix = OutputPrefixType.unknown
        while let (field, value) = try reader.next() {
            switch field {
            case 1: keyData = try parseKeyData(value.asBytes(format, "key_data"))
            case 2: status = KeyStatus(rawValue: try value.asUInt32(format, "status"))
            case 3: keyID = try value.asUInt32(format, "key_id")
            case 4: prefix = OutputPrefixType(rawValue: try value.asUInt32(format, "output_prefix_type")) ?? .unknown
            default: continue
            }
        }
        return Key(keyData: keyData, status: status, keyID: keyID, outputPrefixType: prefix)
    }

    private static func parseKeyData(_ bytes: ArraySlice<UInt8>) throws(KindredCryptoError) -> KeyData {
        let format = "keyset"
        var reader = ProtobufReader(bytes, format: format)
        var typeURL = ""
        var value: [UInt8] = []
        var material = KeyMaterialType.unknown
        while let (field, v) = try reader.next() {
            switch field {
            case 1:
                guard let s = String(validating: try v.asBytes(format, "type_url"), as: UTF8.self) else {
                    throw .malformed(format: format, reason: "type_url is not UTF-8")
                }
                typeURL = s
            case 2: value = Array(try v.asBytes(format, "value"))
            case 3: material = KeyMaterialType(rawValue: try v.asUInt32(format, "key_material_type")) ?? .unknown
            default: continue
            }
        }
        return KeyData(typeURL: typeURL, value: value, keyMaterialType: material)
    }

    /// The primary key, checked to exist once, be enabled, and carry a known prefix type.
    /// - Throws: `KindredCryptoError.invalidKeyset`.
    public func primaryKey() throws(KindredCryptoError) -> Key {
        let matches = keys.filter { $0.keyID == primaryKeyID }
        guard matches.count == 1, let key = matches.first else {
            throw .invalidKeyset(reason: matches.isEmpty ? "no key has the primary key id" : "several keys share the primary key id")
        }
        guard key.status == .enabled else { throw .invalidKeyset(reason: "the primary key is not enabled") }
        guard key.outputPrefixType != .unknown else { throw .invalidKeyset(reason: "the primary key has no output prefix type") }
        return key
    }

    /// A fresh random key id (Tink draws a random positive 31-bit id not already in use).
    /// - Returns: an id in 1…2³¹−1 that no key of this keyset has.
    public func newKeyID() -> UInt32 {
        var rng = SystemRandomNumberGenerator()
        while true {
            let id = UInt32.random(in: 1...0x7fff_ffff, using: &rng)
            if !keys.contains(where: { $0.keyID == id }) { return id }
        }
    }
}
