extension JSONObjectWriter {
    /// An object of string members as `JSONEncoder` writes a `[String: String]` with the
    /// server's options (`.sortedKeys`: the keys in the order of their UTF-8 bytes, not `String`'s
    /// `<`, which orders `e` + combining acute with `é`; `.withoutEscapingSlashes`).
    ///
    /// Realtime events and queued notifications carry such a payload (ids); every Closer write
    /// encoded one or two with a fresh `JSONEncoder`, whose fixed cost was most of the work for a
    /// handful of short strings. `JSONObjectWriterStringsTests` compares it with `JSONEncoder` on
    /// random keys and values.
    package static func object(_ fields: [String: String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(2 + fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        out.append(UInt8(ascii: "{"))
        for (index, field) in fields.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendQuoted(field.key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendQuoted(field.value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
