/// Strict Base64 (RFC 4648) in the two alphabets Kindred's wire formats use.
///
/// Decoding is strict: characters outside the alphabet, misplaced or missing padding
/// (standard alphabet), any padding (URL-safe alphabet) and non-zero trailing bits are
/// refused, so every byte string has exactly one accepted text form.
public enum Base64 {
    /// The two alphabets: standard (`+/`, padded) and URL-safe (`-_`, unpadded).
    public enum Alphabet: Sendable {
        /// RFC 4648 §4, with `=` padding (the `enc:v1:` body).
        case standard
        /// RFC 4648 §5 without padding (`sealed:v1:`, `keybox:v1:`, `pub:v1:`, `sha256:`).
        case urlSafeNoPadding
    }

    private static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes.
    /// - Parameters:
    ///   - bytes: the bytes to encode.
    ///   - alphabet: `.standard` (padded) or `.urlSafeNoPadding`.
    /// - Returns: the Base64 text.
    public static func encode(_ bytes: some Collection<UInt8>, alphabet: Alphabet) -> String {
        let table = alphabet == .standard ? standardTable : urlTable
        let input = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(table[Int(n >> 18 & 63)]); out.append(table[Int(n >> 12 & 63)])
            out.append(table[Int(n >> 6 & 63)]); out.append(table[Int(n & 63)])
            i += 3
        }
        let rest = input.count - i
        if rest > 0 {
            var n = UInt32(input[i]) << 16
            if rest == 2 { n |= UInt32(input[i + 1]) << 8 }
            out.append(table[Int(n >> 18 & 63)]); out.append(table[Int(n >> 12 & 63)])
            if rest == 2 { out.append(table[Int(n >> 6 & 63)]) }
            if alphabet == .standard { out.append(contentsOf: Array(repeating: UInt8(ascii: "="), count: 3 - rest)) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes text strictly.
    /// - Parameters:
    ///   - text: the Base64 text.
    ///   - alphabet: the alphabet the text must use.
    ///   - format: the wire format's name, used in the error.
    /// - Returns: the decoded bytes.
    /// - Throws: `KindredCryptoError.malformed` for any character, padding or trailing-bit violation.
    public static func decode(_ text: some StringProtocol, alphabet: Alphabet, format: String = "base64") throws(KindredCryptoError) -> [UInt8] {
        var chars = Array(text.utf8)
        if alphabet == .standard {
            guard chars.count % 4 == 0 else { throw .malformed(format: format, reason: "length is not a multiple of 4") }
            var pad = 0
            while pad < 2, let last = chars.last, last == UInt8(ascii: "=") { chars.removeLast(); pad += 1 }
        } else if chars.count % 4 == 1 {
            throw .malformed(format: format, reason: "impossible length")
        }
        var out = [UInt8]()
        out.reserveCapacity(chars.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in chars {
            guard let v = value(of: c, alphabet: alphabet) else {
                throw .malformed(format: format, reason: "invalid character")
            }
            acc = acc << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
                acc &= (1 << UInt32(bits)) - 1
            }
        }
        guard chars.count % 4 != 1 else { throw .malformed(format: format, reason: "impossible length") }
        guard acc == 0 else { throw .malformed(format: format, reason: "non-zero trailing bits") }
        return out
    }

    @inline(__always)
    private static func value(of c: UInt8, alphabet: Alphabet) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where alphabet == .standard: return 62
        case UInt8(ascii: "/") where alphabet == .standard: return 63
        case UInt8(ascii: "-") where alphabet == .urlSafeNoPadding: return 62
        case UInt8(ascii: "_") where alphabet == .urlSafeNoPadding: return 63
        default: return nil
        }
    }
}
