/// Decides who may read the channels of one kind; each domain registers one for its kinds
/// (a couple's channel: its two members; a chat: its participants).
///
/// Called when a client subscribes, and again when `RealtimeHub.revalidate(channel:)` or
/// `membershipChanged(user:)` says that membership changed; a `false` then ends the subscription.
public protocol ChannelAuthorizing: Sendable {
    /// Whether the user may read `channel`.
    /// - Parameters:
    ///   - channel: a channel of one of the kinds this authorizer was registered for.
    ///   - userID: the signed-in user.
    ///   - app: the app the connection was opened for.
    /// - Throws: a database error (the subscription is then refused with `internal`).
    func mayRead(_ channel: RealtimeChannel, userID: String, app: AppID) async throws -> Bool
}

/// `user:<id>`: only that user.
struct UserChannelAuthorizer: ChannelAuthorizing {
    func mayRead(_ channel: RealtimeChannel, userID: String, app: AppID) async throws -> Bool {
        channel.id == userID
    }
}

/// The authorizer of each channel kind. `user` is built in; domains add theirs.
public struct ChannelAuthorizers: Sendable {
    private var byKind: [String: any ChannelAuthorizing] = ["user": UserChannelAuthorizer()]

    /// The built-in kinds only (`user`).
    public init() {}

    /// Registers the authorizer of a channel kind (replacing an earlier one of that kind).
    /// - Parameters:
    ///   - kind: the channel kind, e.g. `couple`.
    ///   - authorizer: decides who may read its channels.
    public mutating func register(kind: String, _ authorizer: any ChannelAuthorizing) {
        byKind[kind] = authorizer
    }

    /// Whether the user may read the channel; channels of unregistered kinds are readable by nobody.
    func mayRead(_ channel: RealtimeChannel, userID: String, app: AppID) async throws -> Bool {
        guard let authorizer = byKind[channel.kind] else { return false }
        return try await authorizer.mayRead(channel, userID: userID, app: app)
    }
}
