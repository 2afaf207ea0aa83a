/// Why a byte string is not an acceptable CBOR item (RFC 8949, section 3).
public enum CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ended inside an item; `offset` is where more bytes were needed.
    case truncated(offset: Int)
    /// An indefinite length (additional information 31) was used; only definite lengths are accepted.
    case indefiniteLength(offset: Int)
    /// Additional information 28–30, reserved by the specification.
    case reservedAdditionalInformation(offset: Int)
    /// Major type 6 (tags) or a simple value / float other than false, true and null.
    case unsupportedItem(majorType: UInt8, offset: Int)
    /// A declared length is larger than the configured limit or the remaining input.
    case lengthTooLarge(UInt64, offset: Int)
    /// Arrays and maps are nested deeper than the configured limit.
    case nestingTooDeep(limit: Int)
    /// A text string is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A map holds the same key twice.
    case duplicateMapKey(offset: Int)
    /// Bytes follow the top-level item.
    case trailingBytes(offset: Int)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .truncated(let offset): "CBOR input ends early at byte \(offset)"
        case .indefiniteLength(let offset): "indefinite CBOR length at byte \(offset)"
        case .reservedAdditionalInformation(let offset): "reserved CBOR additional information at byte \(offset)"
        case .unsupportedItem(let majorType, let offset): "unsupported CBOR item (major type \(majorType)) at byte \(offset)"
        case .lengthTooLarge(let length, let offset): "CBOR length \(length) too large at byte \(offset)"
        case .nestingTooDeep(let limit): "CBOR nested deeper than \(limit) levels"
        case .invalidUTF8(let offset): "CBOR text at byte \(offset) is not UTF-8"
        case .duplicateMapKey(let offset): "duplicate CBOR map key at byte \(offset)"
        case .trailingBytes(let offset): "bytes after the CBOR item at byte \(offset)"
        }
    }
}
