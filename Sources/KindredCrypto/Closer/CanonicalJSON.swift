/// RFC 8785 JSON Canonicalization Scheme (JCS) for the JSON values Closer signs and commits to:
/// objects, arrays, strings, integers, booleans and null (no fractional numbers).
///
/// Canonical form: no whitespace; object members sorted by their names' UTF-16 code units;
/// strings escape only `"` `\` and the controls U+0000…U+001F (as `\b \f \n \r \t`, else
/// `\u00xx` with lower-case hex), everything else is literal UTF-8; integers in plain decimal.
/// Spec: `docs/wire-formats.md`, "Canonical JSON".
public enum CanonicalJSON {
    /// The largest integer magnitude JCS (via I-JSON / IEEE 754 doubles) represents exactly: 2⁵³ − 1.
    public static let maximumSafeInteger: Int64 = 9_007_199_254_740_991

    /// A JSON value of the subset Closer uses.
    public indirect enum Value: Equatable, Sendable {
        /// An object; member order is irrelevant (canonicalization sorts), names must be unique.
        case object([String: Value])
        /// An array, in order.
        case array([Value])
        /// A string.
        case string(String)
        /// An integer with |n| ≤ 2⁵³ − 1.
        case integer(Int64)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
    }

    /// Serializes a value canonically.
    /// - Parameter value: the value.
    /// - Returns: the RFC 8785 canonical UTF-8 bytes.
    /// - Throws: `KindredCryptoError.invalidParameters` for an integer beyond ±(2⁵³ − 1).
    public static func encode(_ value: Value) throws(KindredCryptoError) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(256)
        try write(value, to: &out)
        return out
    }

    /// Serializes a value canonically, as a String.
    /// - Parameter value: the value.
    /// - Returns: the canonical JSON text.
    /// - Throws: `KindredCryptoError.invalidParameters` for an integer beyond ±(2⁵³ − 1).
    public static func string(_ value: Value) throws(KindredCryptoError) -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    /// Orders two member names as JCS does: by their UTF-16 code units, lexicographically.
    /// - Parameters:
    ///   - a: a member name.
    ///   - b: another member name.
    /// - Returns: `true` when `a` sorts before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    private static func write(_ value: Value, to out: inout [UInt8]) throws(KindredCryptoError) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let n):
            guard n >= -maximumSafeInteger, n <= maximumSafeInteger else {
                throw .invalidParameters("JSON integer \(n) is beyond ±(2^53 - 1)")
            }
            out += Array(String(n).utf8)
        case .string(let s): appendString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, name) in members.keys.sorted(by: precedes).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                // The key comes from `members.keys`, so the lookup always succeeds.
                try write(members[name] ?? .null, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
