/// Finding and writing the bytes a canonical JSON string must escape, eight bytes at a time.
/// Spec: `docs/wire-formats.md`, "Canonical JSON".
extension CanonicalJSON {
    /// Whether a JSON string must escape `byte`: `"`, `\` and the controls U+0000…U+001F.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes of `word` needs escaping (exact, with no false positives:
    /// each test below is the classic "has a zero byte" / "has a byte less than n" bit trick,
    /// which is exact as a yes/no answer for the whole word).
    @inline(__always)
    static func anyNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let belowSpace = (word &- ones &* 0x20) & ~word                      // some byte < 0x20
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let hasQuote = (quote &- ones) & ~quote                              // some byte == '"'
        let hasBackslash = (backslash &- ones) & ~backslash                  // some byte == '\'
        return (belowSpace | hasQuote | hasBackslash) & highBits != 0
    }

    /// The index of the first byte at or after `start` that needs escaping, or `bytes.count`.
    /// - Parameters:
    ///   - bytes: UTF-8 text.
    ///   - start: where to begin (`0...bytes.count`).
    /// - Returns: the index of the first `"`, `\` or control byte, or `bytes.count` when none.
    static func firstNeedingEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        if let base = bytes.baseAddress {
            // Whole words first: `i + 8 <= bytes.count` keeps every load inside the buffer.
            let raw = UnsafeRawPointer(base)
            while i + 8 <= bytes.count, !anyNeedsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
            }
        }
        while i < bytes.count, !needsEscape(bytes[i]) { i += 1 }
        return i
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends a canonical JSON string literal: quotes, literal UTF-8, and escapes only for `"`,
    /// `\` and controls (`\b \f \n \r \t`, else `\u00xx` in lower-case hex).
    /// - Parameters:
    ///   - utf8: the string's UTF-8 bytes.
    ///   - out: the buffer to append to.
    static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        while true {
            let i = firstNeedingEscape(in: utf8, from: runStart)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            guard i < utf8.count else { break }
            let byte = utf8[i]
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0c: out.append(UInt8(ascii: "f"))
            case 0x0a: out.append(UInt8(ascii: "n"))
            case 0x0d: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            default:
                out.append(contentsOf: "u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 15)])
            }
            runStart = i + 1
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a String as a canonical JSON string literal (see `appendString(_:to:)`). These
    /// are also exactly the bytes Foundation's `JSONEncoder` writes for a string with
    /// `.withoutEscapingSlashes`, so the server's hand-written answers use it too.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendString($0, to: &out) }
    }
}
