import Foundation

/// The JSON text frames of the realtime protocol (docs/platform.md, "Realtime").
///
/// Every frame is an object whose `op` says what it is. Server frames are written by hand
/// (key order fixed, event data embedded as-is) so an event is encoded once per fan-out.
enum RealtimeFrame {
    /// What a client may send.
    enum Client: Equatable, Sendable {
        /// `{"op":"subscribe","channel":…,"after":N?}`
        case subscribe(channel: String, after: Int64?)
        /// `{"op":"unsubscribe","channel":…}`
        case unsubscribe(channel: String)
        /// `{"op":"pong"}`
        case pong
    }

    /// The wire shape of a client frame.
    private struct ClientWire: Decodable {
        var op: String
        var channel: String?
        var after: Int64?
    }

    /// Parses a client frame.
    /// - Throws: `KindredError.badRequest` naming what is wrong.
    static func parse(_ text: String) throws(KindredError) -> Client {
        let wire: ClientWire
        do {
            wire = try JSONDecoder().decode(ClientWire.self, from: Data(text.utf8))
        } catch {
            throw .badRequest("a frame is a JSON object with a string \"op\"")
        }
        switch wire.op {
        case "subscribe":
            guard let channel = wire.channel else { throw .badRequest("subscribe needs a \"channel\"") }
            if let after = wire.after, after < 0 { throw .badRequest("\"after\" is a sequence number, 0 or more") }
            return .subscribe(channel: channel, after: wire.after)
        case "unsubscribe":
            guard let channel = wire.channel else { throw .badRequest("unsubscribe needs a \"channel\"") }
            return .unsubscribe(channel: channel)
        case "pong":
            return .pong
        default:
            throw .badRequest("unknown op \"\(wire.op.prefix(40))\"; use subscribe, unsubscribe or pong")
        }
    }

    // MARK: - Server frames

    /// `{"op":"subscribed","channel":…,"seq":N}`: the channel's sequence number when the subscription began.
    static func subscribed(_ channel: String, seq: Int64) -> String {
        #"{"op":"subscribed","channel":\#(quote(channel)),"seq":\#(seq)}"#
    }

    /// `{"op":"unsubscribed","channel":…,"reason":…}`: the subscription ended (`requested` or `forbidden`).
    static func unsubscribed(_ channel: String, reason: String) -> String {
        #"{"op":"unsubscribed","channel":\#(quote(channel)),"reason":\#(quote(reason))}"#
    }

    /// `{"op":"event","channel":…,"seq":N,"type":…,"data":{…}}`
    static func event(_ event: RealtimeEvent) -> String {
        #"{"op":"event","channel":\#(quote(event.channel)),"seq":\#(event.seq),"type":\#(quote(event.type)),"data":\#(event.data)}"#
    }

    /// `{"op":"gap","channel":…,"from":A,"to":B}`: events A…B are no longer retained.
    static func gap(_ channel: String, from: Int64, to: Int64) -> String {
        #"{"op":"gap","channel":\#(quote(channel)),"from":\#(from),"to":\#(to)}"#
    }

    /// `{"op":"error","code":…,"message":…}` (with `channel` when about one channel).
    static func error(_ error: KindredError, channel: String? = nil) -> String {
        let channelField = channel.map { #","channel":\#(quote($0))"# } ?? ""
        return #"{"op":"error","code":\#(quote(error.code)),"message":\#(quote(error.message))\#(channelField)}"#
    }

    /// `{"op":"ping"}`; answer with `{"op":"pong"}`.
    static let ping = #"{"op":"ping"}"#

    /// A string as a JSON string literal (RFC 8259 §7).
    static func quote(_ string: String) -> String {
        var out = "\""
        out.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                out += "\\u00" + String(s.value >> 4, radix: 16) + String(s.value & 0xF, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
