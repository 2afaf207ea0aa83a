/// A strict decoder for one CBOR data item (RFC 8949) with definite lengths only.
///
/// Accepts major types 0–5 and the simple values false, true and null; refuses tags, floats,
/// indefinite lengths, duplicate map keys, invalid UTF-8 and trailing bytes. Depth, string
/// lengths and element counts are bounded, so hostile input cannot exhaust memory or stack.
/// See https://www.rfc-editor.org/rfc/rfc8949#section-3.
public struct CBORDecoder: Sendable {
    /// The deepest nesting of arrays and maps accepted.
    public var maximumDepth: Int
    /// The longest byte or text string, and the most elements of one array or map, accepted.
    public var maximumLength: Int

    /// Creates a decoder with the given limits.
    public init(maximumDepth: Int = 16, maximumLength: Int = 1 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumLength = maximumLength
    }

    /// Decodes exactly one item spanning all of `bytes`.
    /// - Parameter bytes: the encoded item.
    /// - Returns: the decoded value.
    /// - Throws: `CBORError` when the input is malformed, unsupported or over a limit.
    public func decode(_ bytes: some Collection<UInt8>) throws(CBORError) -> CBORValue {
        var reader = Reader(bytes: Array(bytes), limits: self)
        let value = try reader.item(depth: 0)
        guard reader.offset == reader.bytes.count else { throw .trailingBytes(offset: reader.offset) }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let limits: CBORDecoder
        var offset = 0

        mutating func byte() throws(CBORError) -> UInt8 {
            guard offset < bytes.count else { throw .truncated(offset: offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: Int) throws(CBORError) -> [UInt8] {
            guard count <= bytes.count - offset else { throw .truncated(offset: offset) }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        mutating func argument(_ info: UInt8, start: Int) throws(CBORError) -> UInt64 {
            switch info {
            case 0...23: return UInt64(info)
            case 24...27:
                let width = 1 << Int(info - 24)
                var value: UInt64 = 0
                for byte in try take(width) { value = value << 8 | UInt64(byte) }
                return value
            case 31: throw .indefiniteLength(offset: start)
            default: throw .reservedAdditionalInformation(offset: start)
            }
        }

        /// A length or count, checked against the limit and (for strings) the remaining input.
        func bounded(_ length: UInt64, start: Int, minimumBytesEach: Int) throws(CBORError) -> Int {
            let remaining = UInt64(bytes.count - offset)
            guard length <= UInt64(limits.maximumLength), length * UInt64(minimumBytesEach) <= remaining else {
                throw .lengthTooLarge(length, offset: start)
            }
            return Int(length)
        }

        mutating func item(depth: Int) throws(CBORError) -> CBORValue {
            let start = offset
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1f
            switch major {
            case 0: return .unsigned(try argument(info, start: start))
            case 1: return .negative(try argument(info, start: start))
            case 2:
                let length = try bounded(try argument(info, start: start), start: start, minimumBytesEach: 1)
                return .bytes(try take(length))
            case 3:
                let length = try bounded(try argument(info, start: start), start: start, minimumBytesEach: 1)
                guard let text = String(validating: try take(length), as: UTF8.self) else {
                    throw .invalidUTF8(offset: start)
                }
                return .text(text)
            case 4:
                guard depth < limits.maximumDepth else { throw .nestingTooDeep(limit: limits.maximumDepth) }
                let count = try bounded(try argument(info, start: start), start: start, minimumBytesEach: 1)
                var values: [CBORValue] = []
                values.reserveCapacity(count)
                for _ in 0..<count { values.append(try item(depth: depth + 1)) }
                return .array(values)
            case 5:
                guard depth < limits.maximumDepth else { throw .nestingTooDeep(limit: limits.maximumDepth) }
                let count = try bounded(try argument(info, start: start), start: start, minimumBytesEach: 2)
                var entries: [CBORMapEntry] = []
                var keys = Set<CBORValue>()
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    let keyOffset = offset
                    let key = try item(depth: depth + 1)
                    guard keys.insert(key).inserted else { throw .duplicateMapKey(offset: keyOffset) }
                    entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
                }
                return .map(entries)
            case 7:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 28...30: throw .reservedAdditionalInformation(offset: start)
                case 31: throw .indefiniteLength(offset: start)
                default: throw .unsupportedItem(majorType: major, offset: start)
                }
            default:
                throw .unsupportedItem(majorType: major, offset: start)
            }
        }
    }
}
