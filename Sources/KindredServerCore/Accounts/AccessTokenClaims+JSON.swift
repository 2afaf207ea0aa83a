import Foundation

/// The claims' JSON without Foundation's coders when it is the plain form Kindred signs.
///
/// Every authenticated request parses a token's claims and every sign-in writes them; the
/// coders spent more on these six fields than the HMAC did. The plain form is exactly what
/// `JSONEncoder` with sorted keys writes for texts of letters, digits, `-`, `_` and `.`
/// (which it never escapes); anything else goes through the coders as before. Parsing happens
/// only after the MAC was verified, so the text is one the server signed.
extension AccessTokenClaims {
    /// The JSON of the claims, keys sorted, as `encoder` (which must sort keys) would write it.
    func json(fallback encoder: JSONEncoder) -> [UInt8] {
        guard [app, iss, sid, sub].allSatisfy(Self.isPlain) else {
            // Six plain fields: encoding cannot fail.
            return Array((try? encoder.encode(self)) ?? Data())
        }
        let text = #"{"app":"\#(app)","exp":\#(exp),"iat":\#(iat),"iss":"\#(iss)","sid":"\#(sid)","sub":"\#(sub)"}"#
        return Array(text.utf8)
    }

    /// The claims of JSON in the plain form `json` writes; nil for any other form.
    static func parsePlain(_ json: [UInt8]) -> AccessTokenClaims? {
        var reader = PlainReader(bytes: json)
        guard reader.expect(#"{"app":""#), let app = reader.text(),
            reader.expect(#"","exp":"#), let exp = reader.integer(),
            reader.expect(#","iat":"#), let iat = reader.integer(),
            reader.expect(#","iss":""#), let iss = reader.text(),
            reader.expect(#"","sid":""#), let sid = reader.text(),
            reader.expect(#"","sub":""#), let sub = reader.text(),
            reader.expect(#""}"#), reader.isAtEnd
        else { return nil }
        return AccessTokenClaims(iss: iss, sub: sub, sid: sid, app: app, iat: iat, exp: exp)
    }

    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy(isPlain)
    }

    fileprivate static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}

/// Reads the plain claims form left to right.
private struct PlainReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    /// Skips `literal` if the bytes continue with it.
    mutating func expect(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let buffer = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard bytes[position..<position + count].elementsEqual(buffer) else { return false }
        position += count
        return true
    }

    /// Plain text up to the next quote (not consumed); nil if a byte is not plain.
    mutating func text() -> String? {
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            guard AccessTokenClaims.isPlain(bytes[position]) else { return nil }
            position += 1
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// A non-negative integer of 1 to 18 digits without leading zeros (as `JSONEncoder` writes).
    mutating func integer() -> Int64? {
        let start = position
        var value: Int64 = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
            guard position - start <= 18 else { return nil }
        }
        let digits = position - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        return value
    }
}
