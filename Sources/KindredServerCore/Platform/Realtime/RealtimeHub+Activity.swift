/// The names under which `RealtimeHub.activity` counts events.
package enum RealtimeActivityKey {
    /// Events committed by this replica (whether or not anyone here subscribes to their channel).
    package static let published = "published"
    /// Events handed to this replica's subscribers (each event once, whatever its subscriber count).
    package static let delivered = "delivered"
}

/// This replica's channels with subscribers: how many, and the busiest.
package struct RealtimeChannelSummary: Sendable, Equatable {
    /// Channels with at least one subscription here.
    package var channels: Int
    /// The channels with the most subscriptions here, most first (ties by name).
    package var busiest: [(channel: String, subscribers: Int)]

    /// Whether two summaries have the same counts and channels.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.channels == rhs.channels && lhs.busiest.elementsEqual(rhs.busiest) { $0 == $1 }
    }
}

extension RealtimeHub {
    /// Events published and delivered on this replica per minute over the last hour
    /// (`RealtimeActivityKey`), for the admin console.
    package var activity: MinuteCounts { broker.activity }

    /// The open WebSocket connections on this replica.
    package var connectionCount: Int { sessions.count }

    /// This replica's channels with subscribers and the `limit` busiest.
    package func channelSummary(limit: Int) async -> RealtimeChannelSummary {
        await broker.channelSummary(limit: limit)
    }
}
