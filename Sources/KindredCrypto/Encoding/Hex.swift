/// Lower-case hexadecimal, as the CLI and the known-answer vectors write bytes.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lower-case hex.
    /// - Parameter bytes: the bytes.
    /// - Returns: two lower-case hex digits per byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out = [UInt8]()
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
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
