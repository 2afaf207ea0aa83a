import KindredServerCore
import Foundation
import SQLKit

/// Announces Closer events: a push notification through the platform's outbox and the same
/// event on the couple's realtime channel `couple:<id>`, both inside the transaction that made
/// the change. Payloads carry ids only, never content.
struct CloserEvents: Sendable {
    let outbox: NotificationOutbox
    let relay: RealtimeRelay

    /// One event.
    struct Event: Sendable {
        /// The realtime type (`closer.partner_answered`, …).
        var type: String
        /// The notification type, when the recipient gets a push.
        var notification: NotificationType?
        /// The alert title and body.
        var title: String
        var body: String
        /// Ids for the app.
        var data: [String: String]
    }

    /// The publisher to open transactions with.
    var publisher: RealtimePublisher { relay.publisher }

    /// The couple's channel.
    static func channel(_ coupleID: String) -> RealtimeChannel? {
        try? RealtimeChannel(kind: "couple", id: coupleID)
    }

    /// Publishes `event` on the couple's channel and, when it has a notification type, queues a
    /// push for `recipient`.
    func emit(_ event: Event, coupleID: String, to recipient: String?, on transaction: RealtimeTransaction) async throws {
        var data = event.data
        data["coupleId"] = coupleID
        if let channel = Self.channel(coupleID) {
            try await publisher.publish(channel: channel, type: event.type, data: data, on: transaction)
        }
        if let recipient, let type = event.notification {
            var payload = data
            payload["event"] = event.type
            try await outbox.enqueue(
                OutgoingNotification(
                    userID: recipient, app: .closer, type: type, title: event.title, body: event.body, data: payload,
                    collapseID: "\(event.type):\(coupleID)"
                ),
                on: transaction.sql
            )
        }
    }

    /// Queues a push for `recipient` and publishes on the couple's channel, on a plain connection
    /// (the jobs' path: a realtime transaction is opened for it).
    func emit(_ event: Event, coupleID: String, to recipient: String?) async throws {
        try await publisher.transaction { transaction in
            try await emit(event, coupleID: coupleID, to: recipient, on: transaction)
        }
    }
}
