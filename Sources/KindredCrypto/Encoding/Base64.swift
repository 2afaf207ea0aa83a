/// Strict Base64 (RFC 4648) in the two alphabets Kindred's wire formats use.
///
/// Decoding is strict: characters outside the alphabet, misplaced or missing padding
/// (standard alphabet), any padding (URL-safe alphabet) and non-zero trailing bits are
/// refused, so every byte string has exactly one accepted text form.
/// Spec: `docs/wire-formats.md`, conventions.
public enum Base64 {
    /// The two alphabets: standard (`+/`, padded) and URL-safe (`-_`, unpadded).
    public enum Alphabet: Sendable {
        /// RFC 4648 §4, with `=` padding (the `enc:v1:` body).
        case standard
        /// RFC 4648 §5 without padding (`sealed:v1:`, `keybox:v1:`, `pub:v1:`, `sha256:`).
        case urlSafeNoPadding
    }

    static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// 256-entry reverse tables: the 6-bit value, or 0xFF for a character outside the alphabet.
    static let standardReverse = reverse(standardTable)
    static let urlReverse = reverse(urlTable)
    static let invalid: UInt8 = 0xFF

    private static func reverse(_ table: [UInt8]) -> [UInt8] {
        var r = [UInt8](repeating: invalid, count: 256)
        for (value, char) in table.enumerated() { r[Int(char)] = UInt8(value) }
        return r
    }

    /// Encodes bytes.
    /// - Parameters:
    ///   - bytes: the bytes to encode.
    ///   - alphabet: `.standard` (padded) or `.urlSafeNoPadding`.
    /// - Returns: the Base64 text.
    public static func encode(_ bytes: some Collection<UInt8>, alphabet: Alphabet) -> String {
        encode(bytes, alphabet: alphabet, prefix: "")
    }

    /// Encodes bytes behind a literal prefix, building the wire string in one allocation.
    /// - Parameters:
    ///   - bytes: the bytes to encode.
    ///   - alphabet: `.standard` (padded) or `.urlSafeNoPadding`.
    ///   - prefix: ASCII text put in front, such as `"sealed:v1:"`.
    /// - Returns: `prefix` followed by the Base64 text.
    static func encode(_ bytes: some Collection<UInt8>, alphabet: Alphabet, prefix: String) -> String {
        if let text = bytes.withContiguousStorageIfAvailable({ encode($0, alphabet: alphabet, prefix: prefix) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { encode($0, alphabet: alphabet, prefix: prefix) }
    }

    /// The length of the Base64 text for `count` bytes.
    static func encodedLength(_ count: Int, alphabet: Alphabet) -> Int {
        let rest = count % 3
        return count / 3 * 4 + (rest == 0 ? 0 : (alphabet == .standard ? 4 : rest + 1))
    }

    /// Appends the Base64 text of `input` to `out`.
    static func append(_ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, to out: inout [UInt8]) {
        let start = out.count
        let count = encodedLength(input.count, alphabet: alphabet)
        out.append(contentsOf: repeatElement(0, count: count))
        out.withUnsafeMutableBufferPointer { _ = write(input, alphabet: alphabet, to: UnsafeMutableBufferPointer(rebasing: $0[start...])) }
    }

    private static func encode(_ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, prefix: String) -> String {
        let prefixLength = prefix.utf8.count
        return String(unsafeUninitializedCapacity: prefixLength + encodedLength(input.count, alphabet: alphabet)) { out in
            var o = 0
            for c in prefix.utf8 { out[o] = c; o += 1 }
            return o + write(input, alphabet: alphabet, to: UnsafeMutableBufferPointer(rebasing: out[o...]))
        }
    }

    /// Writes the Base64 text of `input` at the start of `out`.
    /// - Precondition: `out` has room for `encodedLength(input.count)` bytes.
    /// - Returns: the number of bytes written.
    private static func write(_ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, to out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let padded = alphabet == .standard
        let rest = input.count % 3
        let count = encodedLength(input.count, alphabet: alphabet)
        precondition(out.count >= count, "Base64 output buffer too small")
        let table = padded ? standardTable : urlTable
        var (i, o) = encodeWide(input, alphabet: alphabet, to: out)
        return table.withUnsafeBufferPointer { t in
            while i + 3 <= input.count {
                let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                out[o] = t[Int(n >> 18 & 63)]; out[o + 1] = t[Int(n >> 12 & 63)]
                out[o + 2] = t[Int(n >> 6 & 63)]; out[o + 3] = t[Int(n & 63)]
                i += 3; o += 4
            }
            if rest > 0 {
                var n = UInt32(input[i]) << 16
                if rest == 2 { n |= UInt32(input[i + 1]) << 8 }
                out[o] = t[Int(n >> 18 & 63)]; out[o + 1] = t[Int(n >> 12 & 63)]
                o += 2
                if rest == 2 { out[o] = t[Int(n >> 6 & 63)]; o += 1 }
                if padded {
                    while o < count { out[o] = UInt8(ascii: "="); o += 1 }
                }
            }
            return count
        }
    }

    /// Decodes text strictly.
    /// - Parameters:
    ///   - text: the Base64 text.
    ///   - alphabet: the alphabet the text must use.
    ///   - format: the wire format's name, used in the error.
    /// - Returns: the decoded bytes.
    /// - Throws: `KindredCryptoError.malformed` for any character, padding or trailing-bit violation.
    public static func decode(_ text: some StringProtocol, alphabet: Alphabet, format: String = "base64") throws(KindredCryptoError) -> [UInt8] {
        let result = text.utf8.withContiguousStorageIfAvailable { decode($0, alphabet: alphabet, format: format) }
            ?? Array(text.utf8).withUnsafeBufferPointer { decode($0, alphabet: alphabet, format: format) }
        return try result.get()
    }

    /// Decodes the Base64 bytes `input` (ASCII) strictly.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, format: String) -> Result<[UInt8], KindredCryptoError> {
        var n = input.count
        if alphabet == .standard {
            guard n % 4 == 0 else { return .failure(.malformed(format: format, reason: "length is not a multiple of 4")) }
            var pad = 0
            while pad < 2, n > 0, input[n - 1] == UInt8(ascii: "=") { n -= 1; pad += 1 }
        }
        let rest = n % 4
        guard rest != 1 else { return .failure(.malformed(format: format, reason: "impossible length")) }
        let outCount = n / 4 * 3 + (rest == 0 ? 0 : rest - 1)
        let table = alphabet == .standard ? standardReverse : urlReverse
        var bad: UInt8 = 0
        var wideBad: UInt32 = 0
        var trailing: UInt8 = 0
        let out = table.withUnsafeBufferPointer { t in
            [UInt8](unsafeUninitializedCapacity: outCount) { buffer, initialized in
                var (i, o) = decodeWide(UnsafeBufferPointer(rebasing: input[..<n]), alphabet: alphabet, to: buffer, invalid: &wideBad)
                while i + 4 <= n {
                    let a = t[Int(input[i])], b = t[Int(input[i + 1])], c = t[Int(input[i + 2])], d = t[Int(input[i + 3])]
                    bad |= a | b | c | d
                    let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[o] = UInt8(truncatingIfNeeded: v >> 16)
                    buffer[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    buffer[o + 2] = UInt8(truncatingIfNeeded: v)
                    i += 4; o += 3
                }
                if rest >= 2 {
                    let a = t[Int(input[i])], b = t[Int(input[i + 1])]
                    bad |= a | b
                    buffer[o] = UInt8(truncatingIfNeeded: a << 2 | b >> 4)
                    if rest == 3 {
                        let c = t[Int(input[i + 2])]
                        bad |= c
                        buffer[o + 1] = UInt8(truncatingIfNeeded: b << 4 | c >> 2)
                        trailing = c & 0x03
                    } else {
                        trailing = b & 0x0F
                    }
                }
                initialized = outCount
            }
        }
        // Valid values are below 64; an invalid character (0xFF) sets the top bits.
        guard bad & 0xC0 == 0, wideBad & wideInvalid == 0 else { return .failure(.malformed(format: format, reason: "invalid character")) }
        guard trailing == 0 else { return .failure(.malformed(format: format, reason: "non-zero trailing bits")) }
        return .success(out)
    }
}
