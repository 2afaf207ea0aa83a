/// A realtime channel name, `<kind>:<id>` (e.g. `user:4f1c…`, `couple:9a2e…`).
///
/// The kind names the domain that owns the channel and decides who may read it
/// (`ChannelAuthorizing`); the id is the domain's own identifier.
public struct RealtimeChannel: Hashable, Sendable, CustomStringConvertible {
    /// The domain's kind: 1–32 characters of `a-z`, `0-9`, `_`, `-`, starting with a letter.
    public let kind: String
    /// The domain's id: 1–128 characters of `A-Z`, `a-z`, `0-9`, `.`, `_`, `-`.
    public let id: String

    /// The wire form, `<kind>:<id>`.
    public var name: String { "\(kind):\(id)" }

    /// The wire form.
    public var description: String { name }

    /// Parses and validates a channel name.
    /// - Throws: `KindredError.invalidChannel` with the reason.
    public init(_ name: String) throws(KindredError) {
        guard let colon = name.firstIndex(of: ":") else {
            throw KindredError.invalidChannel("a channel is named <kind>:<id>")
        }
        try self.init(kind: String(name[..<colon]), id: String(name[name.index(after: colon)...]))
    }

    /// A channel from its parts, validated.
    /// - Throws: `KindredError.invalidChannel` with the reason.
    public init(kind: String, id: String) throws(KindredError) {
        guard (1...32).contains(kind.utf8.count), let first = kind.utf8.first, (97...122).contains(first),
            kind.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 95 || $0 == 45 })
        else {
            throw KindredError.invalidChannel("a channel kind is 1–32 characters of a-z, 0-9, _ and -, starting with a letter")
        }
        guard (1...128).contains(id.utf8.count),
            id.utf8.allSatisfy({
                (97...122).contains($0) || (65...90).contains($0) || (48...57).contains($0) || $0 == 46 || $0 == 95 || $0 == 45
            })
        else {
            throw KindredError.invalidChannel("a channel id is 1–128 characters of A-Z, a-z, 0-9, '.', '_' and '-'")
        }
        self.kind = kind
        self.id = id
    }

    /// The private channel of one user: `user:<id>`. Only that user may read it.
    public static func user(_ userID: String) -> RealtimeChannel {
        // Account ids are lower-case UUIDs, always valid channel ids.
        (try? RealtimeChannel(kind: "user", id: userID)) ?? RealtimeChannel(unchecked: "user", id: userID)
    }

    private init(unchecked kind: String, id: String) {
        self.kind = kind
        self.id = id
    }

    /// The owner of a private channel (the user of `user:<id>`), nil for shared channels.
    package var ownerUserID: String? { kind == "user" ? id : nil }
}
