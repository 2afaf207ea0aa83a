/// The small subset of the protocol buffers wire format (proto3) that Tink keysets use.
///
/// Writing follows what protobuf-java emits: fields in field-number order, proto3 default
/// values (0, empty) omitted. Reading accepts any field order, skips unknown fields of every
/// valid wire type, and reports truncation or malformed varints as typed errors.
/// Spec: `docs/wire-formats.md`, "Tink keysets".
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    /// Appends a base-128 varint.
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Writes a varint field (uint32, enum), omitted when zero as proto3 does.
    mutating func uint(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        varint(UInt64(field) << 3 | 0)
        varint(value)
    }

    /// Writes a length-delimited field (bytes, string, message), omitted when empty.
    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        varint(UInt64(field) << 3 | 2)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Writes a nested message field; present (even when empty) when `always` is true.
    mutating func message(_ field: Int, _ value: [UInt8], always: Bool = false) {
        if value.isEmpty && !always { return }
        varint(UInt64(field) << 3 | 2)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }
}

/// One decoded protobuf field.
enum ProtobufValue {
    case varint(UInt64)
    case bytes(ArraySlice<UInt8>)
    case fixed32(UInt32)
    case fixed64(UInt64)
}

/// Iterates the fields of one protobuf message.
struct ProtobufReader {
    private let data: ArraySlice<UInt8>
    private var index: Int
    let format: String

    init(_ data: ArraySlice<UInt8>, format: String) {
        self.data = data
        self.index = data.startIndex
        self.format = format
    }

    init(_ data: [UInt8], format: String) {
        self.init(data[...], format: format)
    }

    /// Reads the next field, or `nil` at the end of the message.
    mutating func next() throws(KindredCryptoError) -> (field: Int, value: ProtobufValue)? {
        guard index < data.endIndex else { return nil }
        let key = try readVarint()
        let field = key >> 3
        guard field >= 1, field <= 536_870_911 else { throw .malformed(format: format, reason: "invalid field number") }
        switch key & 7 {
        case 0:
            return (Int(field), .varint(try readVarint()))
        case 1:
            guard data.endIndex - index >= 8 else { throw .truncated(format: format) }
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(data[index + k]) << (8 * UInt64(k)) }
            index += 8
            return (Int(field), .fixed64(v))
        case 2:
            let length = try readVarint()
            guard length <= UInt64(data.endIndex - index) else { throw .truncated(format: format) }
            let start = index
            index += Int(length)
            return (Int(field), .bytes(data[start..<index]))
        case 5:
            guard data.endIndex - index >= 4 else { throw .truncated(format: format) }
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(data[index + k]) << (8 * UInt32(k)) }
            index += 4
            return (Int(field), .fixed32(v))
        default:
            throw .malformed(format: format, reason: "unsupported wire type \(key & 7)")
        }
    }

    private mutating func readVarint() throws(KindredCryptoError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < data.endIndex else { throw .truncated(format: format) }
            let byte = data[index]
            index += 1
            guard shift < 64 else { throw .malformed(format: format, reason: "varint too long") }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }
}

extension ProtobufValue {
    /// The value of a varint field, or a typed error naming the field.
    func asVarint(_ format: String, _ name: String) throws(KindredCryptoError) -> UInt64 {
        guard case .varint(let v) = self else { throw .malformed(format: format, reason: "\(name) has the wrong wire type") }
        return v
    }

    /// The value of a uint32 field, refusing values above 2³²−1.
    func asUInt32(_ format: String, _ name: String) throws(KindredCryptoError) -> UInt32 {
        let v = try asVarint(format, name)
        guard let u = UInt32(exactly: v) else { throw .malformed(format: format, reason: "\(name) exceeds 32 bits") }
        return u
    }

    /// The value of a length-delimited field, or a typed error naming the field.
    func asBytes(_ format: String, _ name: String) throws(KindredCryptoError) -> ArraySlice<UInt8> {
        guard case .bytes(let b) = self else { throw .malformed(format: format, reason: "\(name) has the wrong wire type") }
        return b
    }
}
