@testable import DeviceIntegrity

/// A CBOR encoder for building test objects (RFC 8949, definite lengths, shortest arguments).
enum TestCBOREncoder {
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let number): head(0, number)
        case .negative(let number): head(1, number)
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let values): head(4, UInt64(values.count)) + values.flatMap(encode)
        case .map(let entries): head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let flag): [flag ? 0xf5 : 0xf4]
        case .null: [0xf6]
        }
    }

    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<0x100: return [type | 24, UInt8(argument)]
        case 0x100..<0x10000: return [type | 25] + bigEndian(argument, 2)
        case 0x10000..<0x1_0000_0000: return [type | 26] + bigEndian(argument, 4)
        default: return [type | 27] + bigEndian(argument, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// A text-keyed map.
    static func map(_ pairs: KeyValuePairs<String, CBORValue>) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: .text($0.key), value: $0.value) })
    }
}
