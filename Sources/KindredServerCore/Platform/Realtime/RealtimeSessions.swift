import KindredStore
import NIOConcurrencyHelpers
import SQLKit

/// Which sessions ended: one session (logout, a reused refresh token), or every session of an
/// account (disabled or deleted).
public enum SessionEnding: Sendable, Equatable {
    /// One session was revoked.
    case session(String)
    /// Every session of the account ended.
    case user(String)
}

/// The open realtime connections of this replica by session, so that a session that ends
/// closes its WebSockets at once instead of at the token's expiry.
///
/// Whoever revokes a session calls `announce(_:on:)` inside the revoking transaction (on
/// PostgreSQL a `NOTIFY` tells every replica when it commits) and `end(_:)` after the commit
/// (this replica). Connections also re-check their session at every heartbeat, which catches
/// revocations made by another process without a notification (`kindred users disable` on
/// SQLite).
public final class RealtimeSessions: Sendable {
    private struct Entry: Sendable {
        var identity: RealtimeIdentity
        var outbox: RealtimeOutbox
    }

    /// A registered connection; unregister it with `remove(_:)`.
    final class Registration: Sendable {}

    private let connections = NIOLockedValueBox<[ObjectIdentifier: Entry]>([:])

    /// Creates an empty registry.
    public init() {}

    /// Registers a connection's outbox under its identity.
    func add(_ identity: RealtimeIdentity, outbox: RealtimeOutbox) -> Registration {
        let registration = Registration()
        connections.withLockedValue { $0[ObjectIdentifier(registration)] = Entry(identity: identity, outbox: outbox) }
        return registration
    }

    /// Forgets a connection that closed.
    func remove(_ registration: Registration) {
        _ = connections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(registration)) }
    }

    /// The number of open connections on this replica.
    var count: Int { connections.withLockedValue { $0.count } }

    /// Closes this replica's connections of the ended session(s): each gets an `error` frame
    /// (`session_revoked`) and then its close.
    /// - Returns: how many connections were closed.
    @discardableResult
    public func end(_ ending: SessionEnding) -> Int {
        // Matched and removed under one lock: the local end (after the commit) and the NOTIFY
        // echo of the same revocation on this replica can run at once, and each connection must
        // get one `session_revoked` frame, from whichever comes first.
        let ended = connections.withLockedValue { connections in
            let matched = connections.filter { _, entry in
                switch ending {
                case .session(let id): entry.identity.sessionID == id
                case .user(let id): entry.identity.userID == id
                }
            }
            for key in matched.keys { connections.removeValue(forKey: key) }
            return matched
        }
        for entry in ended.values {
            entry.outbox.send(RealtimeFrame.error(.sessionRevoked))
            entry.outbox.finish()
        }
        return ended.count
    }

    /// Tells the other replicas, when `sql`'s transaction commits, that `ending` happened
    /// (PostgreSQL `NOTIFY`; nothing on SQLite, where one process serves).
    public static func announce(_ ending: SessionEnding, on sql: any SQLDatabase) async throws {
        guard sql.dialect.notifiesListeners else { return }
        let notice: RealtimeNotice = switch ending {
        case .session(let id): .sessionEnded(id)
        case .user(let id): .userSessionsEnded(id)
        }
        try await sql.raw(
            "SELECT pg_notify(\(bind: RealtimePublisher.notifyChannel), \(bind: notice.payload))"
        ).run()
    }
}
