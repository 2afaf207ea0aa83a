/// A JSON document as the request validator reads it: just enough to check a contract's
/// constraints (the generated code decodes the body into its types afterwards).
enum JSONValue: Hashable {
    case null
    case bool(Bool)
    /// A number, as a `Double` (every bound in the contracts is well inside its exact range).
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order; a repeated key keeps every occurrence.
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Hashes consistently with `==` (an object's members in order, as `==` compares them).
    func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let elements): hasher.combine(elements)
        case .object(let members):
            hasher.combine(members.count)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }
}

/// A strict RFC 8259 parser into `JSONValue`, bounded in depth.
///
/// A body it cannot parse is left to the generated decoder, whose answer to malformed JSON is the
/// same as before validation existed; only nesting deeper than `maxDepth` is refused here (no
/// contract nests that deep, and recursion must stay bounded).
struct JSONParser {
    /// Why a body was not parsed.
    enum Failure: Error, Equatable {
        /// Not JSON (the generated decoder reports it).
        case malformed
        /// Arrays or objects nested deeper than `maxDepth`.
        case tooDeep
    }

    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    /// Parses one JSON text (surrounding whitespace allowed).
    /// - Throws: `Failure`.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw .malformed }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw .malformed }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw .tooDeep }
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .malformed }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw .malformed }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw .malformed }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "}") else { throw .malformed }
                index += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw .tooDeep }
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw .malformed }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "]") else { throw .malformed }
                index += 1
                return .array(elements)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            return .number(try number())
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let utf8 = word.utf8
        guard index + utf8.count <= bytes.count, bytes[index..<(index + utf8.count)].elementsEqual(utf8) else { throw .malformed }
        index += utf8.count
    }

    private mutating func number() throws(Failure) -> Double {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw .malformed }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw .malformed }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw .malformed }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw .malformed }
        return number
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A string starting at the opening quote; escapes decoded, a lone surrogate becomes U+FFFD.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // The common case, no escape: one copy of the bytes.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw .malformed }
            index += 1
        }
        guard index < bytes.count else { throw .malformed }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return try Self.validUTF8(bytes[start..<(index - 1)])
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: try Self.validUTF8(bytes[start..<index]).unicodeScalars)
        var run = index
        while true {
            guard index < bytes.count else { throw .malformed }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: try Self.validUTF8(bytes[run..<index]).unicodeScalars)
                index += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw .malformed }
            guard byte == UInt8(ascii: "\\") else { index += 1; continue }
            scalars.append(contentsOf: try Self.validUTF8(bytes[run..<index]).unicodeScalars)
            index += 1
            guard index < bytes.count else { throw .malformed }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let unit = try hex4()
                if (0xD800..<0xDC00).contains(unit), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    let mark = index
                    index += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                    } else {
                        scalars.append("\u{FFFD}")
                        index = mark
                    }
                } else {
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
            default: throw .malformed
            }
            run = index
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .malformed }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .malformed
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private static func validUTF8(_ slice: ArraySlice<UInt8>) throws(Failure) -> String {
        guard let string = String(validating: slice, as: UTF8.self) else { throw .malformed }
        return string
    }
}
