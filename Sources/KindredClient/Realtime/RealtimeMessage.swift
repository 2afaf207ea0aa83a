import Foundation

/// What a realtime subscription yields.
public enum RealtimeMessage: Sendable, Equatable {
    /// An event of the channel, in sequence order, each once.
    /// - `data`: the payload as JSON text.
    case event(channel: String, seq: Int64, type: String, data: String)
    /// Events `from…to` are no longer kept by the server: re-read the state the channel
    /// describes; events after `to` follow.
    case gap(channel: String, from: Int64, to: Int64)
}

/// A server frame as the client reads it.
struct RealtimeServerFrame: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case subscribed(seq: Int64)
        case unsubscribed(reason: String)
        case event(RealtimeMessage)
        case gap(RealtimeMessage)
        case error(code: String, message: String)
        case ping
    }

    var channel: String?
    var kind: Kind

    /// Parses a server frame; nil for what this client does not know (ignored).
    init?(_ text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let op = object["op"] as? String
        else { return nil }
        let channel = object["channel"] as? String
        self.channel = channel
        func int(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }
        switch op {
        case "ping":
            kind = .ping
        case "subscribed":
            guard let seq = int("seq") else { return nil }
            kind = .subscribed(seq: seq)
        case "unsubscribed":
            kind = .unsubscribed(reason: object["reason"] as? String ?? "")
        case "event":
            guard let channel, let seq = int("seq"), let type = object["type"] as? String, let data = object["data"],
                let json = try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .fragmentsAllowed])
            else { return nil }
            kind = .event(.event(channel: channel, seq: seq, type: type, data: String(decoding: json, as: UTF8.self)))
        case "gap":
            guard let channel, let from = int("from"), let to = int("to") else { return nil }
            kind = .gap(.gap(channel: channel, from: from, to: to))
        case "error":
            kind = .error(code: object["code"] as? String ?? "", message: object["message"] as? String ?? "")
        default:
            return nil
        }
    }
}
