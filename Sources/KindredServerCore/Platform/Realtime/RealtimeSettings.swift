/// How the realtime service behaves; defaults are production values, tests shorten them.
public struct RealtimeSettings: Sendable, Equatable {
    /// How often the server sends `ping`; a peer that leaves two unanswered is dropped.
    public var heartbeatInterval: Duration = .seconds(30)
    /// How long events are kept for resuming clients.
    public var retentionAge: Duration = .seconds(24 * 3600)
    /// How many events each channel keeps for resuming clients.
    public var retentionCount: Int = 1000
    /// How long a ticket from `POST /v1/realtime/ticket` stays valid.
    public var ticketLifetime: Duration = .seconds(30)
    /// The most channels one connection may subscribe to.
    public var maxSubscriptionsPerConnection: Int = 100
    /// The most frames queued for one slow connection before it is dropped.
    public var outboundQueueLimit: Int = 4096
    /// The largest client frame accepted, in bytes.
    public var maxClientFrameSize: Int = 4096
    /// The most WebSockets one user may have open on one replica; the next gets the frame
    /// `too_many_sockets` and is closed (`realtime.socketsPerUser`).
    public var socketsPerUser: Int = 10

    /// The defaults.
    public init() {}
}
