/// One logical content line: its physical lines joined (RFC 5545 §3.1 unfolding), with where it
/// was in the file.
struct ICSLogicalLine: Sendable {
    /// The unfolded bytes, without the line break. Joining happens on bytes, so a fold in the
    /// middle of a multi-byte UTF-8 character is undone before anything is decoded.
    var bytes: [UInt8]
    /// The 1-based number of its first physical line.
    var line: Int
    /// Its bytes in the file: from its first byte to the end of its last line break.
    var range: Range<Int>
}

/// Splits a file into logical lines (RFC 5545 §3.1).
///
/// A line ends at CRLF or at a bare LF (common in files written on Unix); a line that starts with
/// a space or a horizontal tab continues the previous one, that one whitespace character and the
/// line break before it being removed. Blank lines are skipped, as is a UTF-8 byte order mark.
enum ICSUnfolder {
    /// The file's logical lines.
    /// - Throws: `CalendarError.malformed` when the first line is a continuation.
    static func lines(of bytes: [UInt8], file: String) throws(CalendarError) -> [ICSLogicalLine] {
        var result: [ICSLogicalLine] = []
        var current: ICSLogicalLine?
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 0
        while start < bytes.count {
            number += 1
            let newline = bytes[start...].firstIndex(of: 0x0A)
            let next = newline.map { $0 + 1 } ?? bytes.count
            var contentEnd = newline ?? bytes.count
            if contentEnd > start, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            defer { start = next }
            if contentEnd == start {
                if let done = current { result.append(done) }
                current = nil
                continue
            }
            let first = bytes[start]
            if first == 0x20 || first == 0x09 {
                guard var continued = current else {
                    throw .malformed(file: file, line: number, reason: "a folded continuation line with no line before it")
                }
                continued.bytes.append(contentsOf: bytes[(start + 1)..<contentEnd])
                continued.range = continued.range.lowerBound..<next
                current = continued
            } else {
                if let done = current { result.append(done) }
                current = ICSLogicalLine(bytes: Array(bytes[start..<contentEnd]), line: number, range: start..<next)
            }
        }
        if let done = current { result.append(done) }
        return result
    }
}
