/// A strict JSON reader for the same subset `CanonicalJSON` writes (RFC 8259 syntax, I-JSON
/// limits): integers only, unique member names, valid UTF-8, no lone surrogates, bounded depth.
/// Spec: `docs/wire-formats.md`, "Canonical JSON".
extension CanonicalJSON {
    /// The deepest nesting of arrays and objects the reader accepts.
    public static let maximumDepth = 16

    /// Parses JSON text.
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text (whitespace between tokens is allowed).
    ///   - format: the wire format's name, used in errors.
    /// - Returns: the value.
    /// - Throws: `KindredCryptoError.malformed` for any syntax, encoding, number or nesting problem.
    public static func parse(_ bytes: [UInt8], format: String = "json") throws(KindredCryptoError) -> Value {
        var reader = Reader(bytes: bytes, format: format)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw .malformed(format: format, reason: "trailing characters after the JSON value") }
        return value
    }

    /// Parses JSON text that must already be in canonical form.
    /// - Parameters:
    ///   - bytes: the canonical UTF-8 JSON text.
    ///   - format: the wire format's name, used in errors.
    /// - Returns: the value.
    /// - Throws: `KindredCryptoError.malformed` if the text is not valid JSON or not canonical.
    public static func parseCanonical(_ bytes: [UInt8], format: String = "json") throws(KindredCryptoError) -> Value {
        let value = try parse(bytes, format: format)
        guard try encode(value) == bytes else { throw .malformed(format: format, reason: "JSON is not in RFC 8785 canonical form") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let format: String
        var index = 0

        init(bytes: [UInt8], format: String) {
            self.bytes = bytes
            self.format = format
        }

        func fail(_ reason: String) -> KindredCryptoError { .malformed(format: format, reason: reason) }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws(KindredCryptoError) {
            for c in literal.utf8 {
                guard index < bytes.count, bytes[index] == c else { throw fail("invalid literal") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(KindredCryptoError) -> Value {
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try integer())
            default: throw fail("unexpected character")
            }
        }

        mutating func object(depth: Int) throws(KindredCryptoError) -> Value {
            guard depth <= CanonicalJSON.maximumDepth else { throw fail("nested deeper than \(CanonicalJSON.maximumDepth)") }
            index += 1
            var members: [String: Value] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let name = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                index += 1
                skipWhitespace()
                let member = try value(depth: depth)
                guard members.updateValue(member, forKey: name) == nil else { throw fail("duplicate member name") }
                skipWhitespace()
                guard index < bytes.count else { throw fail("unexpected end of JSON") }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or '}'") }
                index += 1
            }
        }

        mutating func array(depth: Int) throws(KindredCryptoError) -> Value {
            guard depth <= CanonicalJSON.maximumDepth else { throw fail("nested deeper than \(CanonicalJSON.maximumDepth)") }
            index += 1
            var items: [Value] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw fail("unexpected end of JSON") }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or ']'") }
                index += 1
            }
        }

        mutating func integer() throws(KindredCryptoError) -> Int64 {
            var negative = false
            if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
            let start = index
            var magnitude: Int64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                magnitude = magnitude * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                guard magnitude <= CanonicalJSON.maximumSafeInteger else { throw fail("integer beyond 2^53 - 1") }
                index += 1
            }
            guard index > start else { throw fail("expected digits") }
            guard bytes[start] != UInt8(ascii: "0") || index == start + 1 else { throw fail("leading zero") }
            if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                throw fail("only integers are supported")
            }
            return negative ? -magnitude : magnitude
        }

        mutating func hex4() throws(KindredCryptoError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw fail("invalid \\u escape")
                }
                v = v << 4 | d
                index += 1
            }
            return v
        }

        mutating func string() throws(KindredCryptoError) -> String {
            index += 1
            var out = [UInt8]()
            while true {
                // Copy a run of ordinary bytes in one step; stop at a quote, backslash or control.
                var end = index
                while end < bytes.count {
                    let c = bytes[end]
                    if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                    end += 1
                }
                if end > index {
                    out.append(contentsOf: bytes[index..<end])
                    index = end
                }
                guard index < bytes.count else { throw fail("unterminated string") }
                let c = bytes[index]
                index += 1
                switch c {
                case UInt8(ascii: "\""):
                    guard let s = String(validating: out, as: UTF8.self) else { throw fail("string is not valid UTF-8") }
                    return s
                case 0x00..<0x20: throw fail("unescaped control character in string")
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw fail("unterminated string") }
                    let e = bytes[index]
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0c)
                    case UInt8(ascii: "n"): out.append(0x0a)
                    case UInt8(ascii: "r"): out.append(0x0d)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"): try unicodeEscape(into: &out)
                    default: throw fail("invalid escape")
                    }
                default: out.append(c)
                }
            }
        }

        mutating func unicodeEscape(into out: inout [UInt8]) throws(KindredCryptoError) {
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw fail("lone surrogate")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail("lone surrogate")
            }
            // Surrogates were handled above, so every remaining value is a Unicode scalar.
            guard let u = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
            out += Array(String(Character(u)).utf8)
        }
    }
}
