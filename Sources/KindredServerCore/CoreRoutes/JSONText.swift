import Foundation
import KindredAPI
import KindredCrypto

/// JSON text written directly, byte for byte as Foundation's `JSONEncoder` writes it with the
/// server's options (`[.sortedKeys, .withoutEscapingSlashes]`): no whitespace, strings escaped
/// the way it escapes them (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, other control characters
/// as `\u00xx` in lower-case hex; `/`, DEL and all non-ASCII text as they are), optional members
/// left out when nil.
///
/// The direct routes (`DirectRoutes`) and the billing inbox's envelope write their documents
/// with it: on a small document, `JSONEncoder`'s fixed cost (its boxing, the dynamic casts and
/// generic metadata of `Codable`) is most of the work. Each user of it has a test comparing its
/// output with `JSONEncoder`'s for the same value.
package struct JSONObjectWriter {
    private(set) var bytes: [UInt8]
    private var isEmpty = true

    /// Starts an object; `capacity` is a guess of the document's length.
    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The finished document. Members must have been written in the order `.sortedKeys` gives
    /// (Unicode order of the keys, which for the ASCII keys used here is byte order).
    package mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// A string member; nothing when `value` is nil.
    package mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        Self.appendQuoted(value, to: &bytes)
    }

    /// A boolean member; nothing when `value` is nil.
    package mutating func bool(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// An integer member; nothing when `value` is nil.
    package mutating func integer(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A date member as the server's `InternetDateTranscoder` writes it; nothing when `value` is nil.
    /// - Throws: the transcoder's error (only for dates outside what ISO 8601 can write).
    package mutating func date(_ key: StaticString, _ value: Date?) throws {
        guard let value else { return }
        string(key, try InternetDateTranscoder().encode(value))
    }

    /// An array of strings.
    package mutating func strings(_ key: StaticString, _ values: some Sequence<String>) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            Self.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member whose value is already JSON text (a nested object written by another writer).
    package mutating func raw(_ key: StaticString, _ json: [UInt8]) {
        self.key(key)
        bytes.append(contentsOf: json)
    }

    /// A member whose value is an object that `write` writes (into this document's buffer, no
    /// copy); nothing when `value` is nil.
    package mutating func object<Value>(
        _ key: StaticString, _ value: Value?, _ write: (Value, inout JSONObjectWriter) throws -> Void
    ) rethrows {
        guard let value else { return }
        self.key(key)
        try nested(value, write)
    }

    /// A member whose value is an array of objects, each written by `write`; nothing when
    /// `values` is nil (an empty array is written as `[]`).
    package mutating func objects<Value>(
        _ key: StaticString, _ values: [Value]?, _ write: (Value, inout JSONObjectWriter) throws -> Void
    ) rethrows {
        guard let values else { return }
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for index in values.indices {
            if index != values.startIndex { bytes.append(UInt8(ascii: ",")) }
            try nested(values[index], write)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `value` as an object at the end of the document: the buffer moves to a writer of
    /// its own and back (swapped, so neither copy-on-write copies it). When `write` throws, the
    /// document is abandoned (the buffer stays with the inner writer).
    private mutating func nested<Value>(_ value: Value, _ write: (Value, inout JSONObjectWriter) throws -> Void) rethrows {
        var inner = JSONObjectWriter(nested: ())
        swap(&inner.bytes, &bytes)
        inner.bytes.append(UInt8(ascii: "{"))
        try write(value, &inner)
        inner.bytes.append(UInt8(ascii: "}"))
        swap(&inner.bytes, &bytes)
    }

    /// A writer without a buffer of its own, for `nested`.
    private init(nested: Void) { bytes = [] }

    private mutating func key(_ key: StaticString) {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: #"":"#.utf8)
    }

    /// Appends `text` as a JSON string literal, escaped as `JSONEncoder` escapes it (the
    /// canonical JSON string form of the wire formats, eight bytes at a time).
    package static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        CanonicalJSON.appendString(text, to: &out)
    }
}
