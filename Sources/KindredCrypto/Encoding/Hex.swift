/// Lower-case hexadecimal, as the CLI and the known-answer vectors write bytes.
public enum Hex {
    /// Encodes bytes as lower-case hex.
    /// - Parameter bytes: the bytes.
    /// - Returns: two lower-case hex digits per byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        // Through a buffer: iterating a generic sequence from another module, a byte at a time,
        // into a growing array was 6 % of a sign-up's request thread (ids and token hashes).
        if let text = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Lower-case hex of `buffer`, written into the string's storage directly.
    static func encode(buffer: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: buffer.count * 2) { out in
            var index = 0
            for byte in buffer {
                out[index] = digit(byte >> 4)
                out[index + 1] = digit(byte & 15)
                index += 2
            }
            return index
        }
    }

    /// The lower-case hex digit (ASCII) of a value below 16.
    @inlinable
    public static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value
    }

    /// Decodes hex (either case).
    /// - Parameter text: an even number of hex digits.
    /// - Returns: the bytes.
    /// - Throws: `KindredCryptoError.malformed` for an odd length or a non-hex character.
    public static func decode(_ text: some StringProtocol) throws(KindredCryptoError) -> [UInt8] {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { throw .malformed(format: "hex", reason: "odd length") }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else {
                throw .malformed(format: "hex", reason: "invalid character")
            }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
