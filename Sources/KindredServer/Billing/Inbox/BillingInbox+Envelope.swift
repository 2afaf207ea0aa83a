import Foundation

extension BillingInbox.Envelope {
    /// The envelope as JSON text, written directly (the same document `JSONEncoder` writes, in
    /// which the raw body is one escaped string; `JSONEncoder` spent more time on it than the
    /// inbox's insert did).
    var jsonText: String {
        var out = [UInt8]()
        out.reserveCapacity(body.utf8.count + eventID.utf8.count + type.utf8.count + 96)
        out.append(contentsOf: #"{"body":"#.utf8)
        Self.appendQuoted(body, to: &out)
        out.append(contentsOf: #","eventID":"#.utf8)
        Self.appendQuoted(eventID, to: &out)
        out.append(contentsOf: #","provider":"#.utf8)
        Self.appendQuoted(provider.rawValue, to: &out)
        out.append(contentsOf: #","receivedAt":"#.utf8)
        out.append(contentsOf: String(receivedAt).utf8)
        out.append(contentsOf: #","type":"#.utf8)
        Self.appendQuoted(type, to: &out)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped,
    /// everything else (UTF-8 included) as is.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array(#"\u00"#.utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
