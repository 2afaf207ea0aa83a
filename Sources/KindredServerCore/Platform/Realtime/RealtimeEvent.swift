/// One event of a channel, as stored and as delivered.
public struct RealtimeEvent: Sendable, Equatable {
    /// The channel's wire name.
    public var channel: String
    /// The channel's sequence number: 1, 2, 3, … with no holes among committed events.
    public var seq: Int64
    /// The event type, e.g. `profile.updated`.
    public var type: String
    /// The payload as JSON text.
    public var data: String
    /// When it was published, milliseconds since 1970.
    public var createdAt: Int64

    /// Creates an event.
    public init(channel: String, seq: Int64, type: String, data: String, createdAt: Int64) {
        self.channel = channel
        self.seq = seq
        self.type = type
        self.data = data
        self.createdAt = createdAt
    }

    /// The `event` frame that delivers it, encoded once and shared by every subscriber.
    var frame: String { RealtimeFrame.event(self) }
}
