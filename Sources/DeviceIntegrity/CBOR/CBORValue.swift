/// One decoded CBOR data item (RFC 8949), limited to the major types App Attest uses.
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: a negative integer, stored as `n` for the value `-1 - n`.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map, its entries in encoded order (keys are unique).
    case map([CBORMapEntry])
    /// Major type 7, simple values 20 and 21.
    case bool(Bool)
    /// Major type 7, simple value 22.
    case null

    /// The value under a text key when this is a map, else `nil`.
    public subscript(key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }

    /// The bytes when this is a byte string, else `nil`.
    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The string when this is a text string, else `nil`.
    public var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The elements when this is an array, else `nil`.
    public var arrayValue: [CBORValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    /// The entry's key.
    public var key: CBORValue
    /// The entry's value.
    public var value: CBORValue

    /// Creates an entry.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
