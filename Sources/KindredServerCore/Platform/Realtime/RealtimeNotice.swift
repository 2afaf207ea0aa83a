/// What replicas tell each other through `NOTIFY kindred_realtime` (payloads stay far below
/// PostgreSQL's 8000-byte limit: a channel name is at most 161 characters).
enum RealtimeNotice: Equatable, Sendable {
    /// Event `seq` of `channel` committed; the receiver reads the rows.
    case event(channel: String, seq: Int64)
    /// Who may read `channel` changed: re-check its subscriptions.
    case revalidateChannel(String)
    /// The user's memberships changed: re-check all their subscriptions.
    case revalidateUser(String)
    /// A session was revoked: close its connections.
    case sessionEnded(String)
    /// Every session of the account ended: close its connections.
    case userSessionsEnded(String)

    /// The NOTIFY payload: `e <seq> <channel>`, `c <channel>`, `u <user id>`, `s <session id>`
    /// or `x <user id>`.
    var payload: String {
        switch self {
        case .event(let channel, let seq): "e \(seq) \(channel)"
        case .revalidateChannel(let channel): "c \(channel)"
        case .revalidateUser(let userID): "u \(userID)"
        case .sessionEnded(let sessionID): "s \(sessionID)"
        case .userSessionsEnded(let userID): "x \(userID)"
        }
    }

    /// Parses a payload; nil for anything else.
    init?(payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts.first {
        case "e":
            guard parts.count == 3, let seq = Int64(parts[1]), seq > 0 else { return nil }
            self = .event(channel: String(parts[2]), seq: seq)
        case "c":
            guard parts.count == 2 else { return nil }
            self = .revalidateChannel(String(parts[1]))
        case "u":
            guard parts.count == 2 else { return nil }
            self = .revalidateUser(String(parts[1]))
        case "s":
            guard parts.count == 2 else { return nil }
            self = .sessionEnded(String(parts[1]))
        case "x":
            guard parts.count == 2 else { return nil }
            self = .userSessionsEnded(String(parts[1]))
        default:
            return nil
        }
    }
}
