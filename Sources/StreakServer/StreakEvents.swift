import Foundation
import KindredServerCore
import SQLKit

/// Announces StreakSync events on the users' private realtime channels (`user:<id>`) inside the
/// transaction that made the change, and queues the pushes a person should notice with the app
/// closed (a friend request, its acceptance) through the platform's outbox.
struct StreakEvents: Sendable {
    let outbox: NotificationOutbox
    let relay: RealtimeRelay

    var publisher: RealtimePublisher { relay.publisher }

    /// A push: its title and body, and the data the app routes on.
    struct Push: Sendable {
        var title: String
        var body: String
        var data: [String: String] = [:]
    }

    /// Publishes `type` with `data` to each of `users` and queues `push` for each of `pushTo`.
    func emit(
        _ type: String, data: [String: String], to users: [String], push: Push? = nil, pushTo: [String] = [],
        on transaction: RealtimeTransaction
    ) async throws {
        let json = try RealtimePublisher.json(data)
        try await publisher.publish(Set(users).sorted().map { (channel: .user($0), type: type, json: json) }, on: transaction)
        guard let push else { return }
        for user in pushTo {
            var payload = push.data
            payload["event"] = type
            _ = try await outbox.enqueue(
                OutgoingNotification(userID: user, app: .streaksync, type: .streaksyncFriends, title: push.title, body: push.body, data: payload),
                on: transaction.sql
            )
        }
    }

    /// Publishes one payload of `type` to every channel of `users` in one batch (one statement on
    /// PostgreSQL; a score's readers are at most 501).
    func broadcast(_ type: String, data: some Encodable & Sendable, to users: [String], on transaction: RealtimeTransaction) async throws {
        guard !users.isEmpty else { return }
        let json = try RealtimePublisher.json(data)
        try await publisher.publish(Set(users).sorted().map { (channel: .user($0), type: type, json: json) }, on: transaction)
    }
}

extension NotificationType {
    /// Friend requests and their acceptance.
    static let streaksyncFriends = NotificationType(rawValue: "streaksync_friends")
}
