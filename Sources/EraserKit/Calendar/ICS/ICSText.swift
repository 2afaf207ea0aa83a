/// The escapes of iCalendar text.
public enum ICSText {
    /// Decodes a TEXT value (RFC 5545 §3.3.11): `\n` or `\N` is a line break, `\,` `\;` and `\\`
    /// are the character itself. Any other backslash is kept as written (some writers leave `\:`
    /// or a lone `\`), so nothing is lost.
    public static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = ""
        result.reserveCapacity(value.utf8.count)
        var iterator = value.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else { result.append(character); continue }
            guard let escaped = iterator.next() else { result.append("\\"); break }
            switch escaped {
            case "n", "N": result.append("\n")
            case ",", ";", "\\": result.append(escaped)
            default: result.append("\\"); result.append(escaped)
            }
        }
        return result
    }

    /// Splits a list value at its unescaped commas (`EXDATE`, `RDATE`), keeping escapes.
    static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; current.append(character); continue }
            if character == "," { parts.append(current); current = ""; continue }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    /// Decodes a parameter value's bytes: UTF-8, then RFC 6868's `^n` (line break), `^'` (`"`)
    /// and `^^` (`^`); any other `^` is kept.
    static func decodeParameter(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("^") else { return text }
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "^" else { result.append(character); continue }
            guard let escaped = iterator.next() else { result.append("^"); break }
            switch escaped {
            case "n": result.append("\n")
            case "'": result.append("\"")
            case "^": result.append("^")
            default: result.append("^"); result.append(escaped)
            }
        }
        return result
    }
}
