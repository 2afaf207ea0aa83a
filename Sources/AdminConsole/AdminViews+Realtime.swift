import Foundation

extension AdminViews {
    /// One channel and its subscribers on this replica.
    struct ChannelRow {
        var channel, subscribers: String
    }

    /// `realtime.mustache`.
    struct Realtime {
        var title = "Realtime"
        var session: Session
        var notice: String?
        var nav = Nav(realtime: true)
        /// Connections, subscriptions and channels on this replica.
        var replica: [Stat]
        /// Events per minute on this replica.
        var events: [Stat]
        /// Events stored by every replica in the last hour.
        var stored: Stat
        var channels: [ChannelRow]
        /// The minutes the charts span.
        var minutes: Int
    }
}
