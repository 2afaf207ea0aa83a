import Foundation
import KindredServerCore
import SQLKit

/// Announces SoulMate events on the users' private realtime channels (`user:<id>`) and, for the
/// ones a person should notice when the app is closed, as a push through the platform's outbox,
/// inside the transaction that made the change. Payloads carry ids and metadata, never content.
struct SoulMateEvents: Sendable {
    let outbox: NotificationOutbox
    let relay: RealtimeRelay

    var publisher: RealtimePublisher { relay.publisher }

    /// A push: its type, the alert and whether the extension may rewrite it.
    struct Push: Sendable {
        var type: NotificationType
        var title: String
        var body: String
        var data: [String: String] = [:]
        var collapseID: String?
        var mutableContent = false
    }

    /// Publishes `type` with `data` to each of `users` and queues `push` for each of `pushTo`.
    /// - Returns: the ids of the queued notifications, in `pushTo`'s order.
    @discardableResult
    func emit(
        _ type: String, data: [String: String], to users: [String], push: Push? = nil, pushTo: [String] = [],
        on transaction: RealtimeTransaction
    ) async throws -> [String] {
        for user in users {
            try await publisher.publish(channel: .user(user), type: type, data: data, on: transaction)
        }
        guard let push else { return [] }
        var ids: [String] = []
        for user in pushTo {
            var payload = push.data
            payload["event"] = type
            ids.append(
                try await outbox.enqueue(
                    OutgoingNotification(
                        userID: user, app: .soulmate, type: push.type, title: push.title, body: push.body, data: payload,
                        collapseID: push.collapseID, mutableContent: push.mutableContent
                    ),
                    on: transaction.sql
                )
            )
        }
        return ids
    }
}

extension NotificationType {
    /// A new message from the partner (its envelope rides along when it fits).
    static let soulmateMessage = NotificationType(rawValue: "soulmate_message")
    /// Pair and unpair requests and their answers.
    static let soulmatePairing = NotificationType(rawValue: "soulmate_pairing")
}
