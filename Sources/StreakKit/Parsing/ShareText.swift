/// A pasted text as parsers read it: Unicode scalars split into lines at any line break (`\n`,
/// `\r\n`, `\r`, U+2028, …), each line trimmed of white space and invisible marks, blank lines dropped.
public struct ShareText: Sendable {
    /// The longest text parsed (UTF-8 bytes): a share is a few hundred; a longer paste is refused.
    public static let byteLimit = 16_384

    /// The text's non-blank lines, trimmed, in order.
    public let lines: [ShareLine]

    /// Splits `text` into lines.
    /// - Throws: `StreakKitError.textTooLong` over `byteLimit`, `.emptyText` when no line has content.
    public init(_ text: String) throws(StreakKitError) {
        let bytes = text.utf8.count
        guard bytes <= Self.byteLimit else { throw .textTooLong(bytes: bytes, limit: Self.byteLimit) }
        let scalars = Array(text.unicodeScalars)
        var lines: [ShareLine] = []
        var start = 0
        var index = 0
        func close(_ end: Int) {
            var lower = start
            var upper = end
            while lower < upper, ShareLine.isBlank(scalars[lower]) { lower += 1 }
            while upper > lower, ShareLine.isBlank(scalars[upper - 1]) { upper -= 1 }
            if lower < upper { lines.append(ShareLine(scalars[lower..<upper])) }
        }
        while index < scalars.count {
            let value = scalars[index].value
            if value == 0x0A || value == 0x0D || value == 0x0B || value == 0x0C || value == 0x85 || value == 0x2028 || value == 0x2029 {
                close(index)
                start = index + 1
            }
            index += 1
        }
        close(scalars.count)
        guard !lines.isEmpty else { throw .emptyText }
        self.lines = lines
    }
}

/// One trimmed, non-blank line of a share text.
public struct ShareLine: Sendable, CustomStringConvertible {
    /// The line's scalars (a slice of the whole text's).
    public let scalars: ArraySlice<Unicode.Scalar>
    /// Where the line's first ASCII letter or digit is (emoji, quote marks and bullets before a
    /// header are skipped), or `scalars.endIndex` when it has none.
    public let contentStart: Int

    init(_ scalars: ArraySlice<Unicode.Scalar>) {
        self.scalars = scalars
        var index = scalars.startIndex
        while index < scalars.endIndex, !ShareLine.isASCIIAlphanumeric(scalars[index]) { index += 1 }
        contentStart = index
    }

    /// The line as a string.
    public var description: String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
    }

    /// White space, or a mark that shows nothing (zero-width space, byte-order mark, direction marks,
    /// a stray variation selector).
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v == 0x20 || v == 0x09 { return true }
        if v < 0x80 { return false }
        switch v {
        case 0x200B, 0x200C, 0x200E, 0x200F, 0x2060, 0xFEFF, 0xFE0F, 0xFE0E: return true
        default: return scalar.properties.isWhitespace
        }
    }
}
