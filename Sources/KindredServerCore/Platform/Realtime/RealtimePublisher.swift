import Foundation
import KindredStore
import NIOConcurrencyHelpers
import SQLKit

/// A database transaction that may publish realtime events; what it published is delivered
/// once it has committed (and never when it rolls back).
public final class RealtimeTransaction: Sendable {
    /// The transaction's connection: run the domain's statements on it.
    public let sql: any SQLDatabase
    package let published = NIOLockedValueBox<[RealtimeEvent]>([])

    package init(sql: any SQLDatabase) {
        self.sql = sql
    }
}

/// Publishes events to channels, inside the transaction that makes the change they announce.
///
/// `publish` numbers the event with the channel's next sequence number and stores it in the
/// same transaction, so an event exists exactly when its change does. Delivery starts after
/// commit: in-process at once, and on PostgreSQL through `NOTIFY` (sent by PostgreSQL only
/// when the transaction commits) to every replica.
public struct RealtimePublisher: Sendable {
    let store: RealtimeEventStore
    package let clock: any WallClock
    let broker: RealtimeBroker

    /// The NOTIFY channel every replica listens on.
    package static let notifyChannel = "kindred_realtime"

    /// Runs `body` in one transaction and delivers what it published after the commit.
    /// - Parameter body: the domain's statements (on `transaction.sql`) and its `publish` calls.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` or the database throws (nothing is delivered then).
    @discardableResult
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (RealtimeTransaction) async throws -> T
    ) async throws -> T {
        let (result, published) = try await store.database.transaction { sql in
            let transaction = RealtimeTransaction(sql: sql)
            let result = try await body(transaction)
            return (result, transaction.published.withLockedValue { $0 })
        }
        await committed(published)
        return result
    }

    /// Numbers and stores an event on `transaction`; delivered after the transaction commits.
    /// Publish in the transaction's own body, not inside a nested savepoint whose failure the
    /// body swallows: the sequence number would roll back with the savepoint while the event
    /// is still delivered.
    /// - Parameters:
    ///   - channel: the channel.
    ///   - type: the event type, e.g. `profile.updated`.
    ///   - data: the payload, encoded as JSON (keys sorted).
    ///   - transaction: the committing transaction (from `transaction(_:)`).
    /// - Returns: the stored event.
    /// - Throws: when `data` cannot be encoded or the database fails.
    @discardableResult
    public func publish(
        channel: RealtimeChannel, type: String, data: some Encodable & Sendable, on transaction: RealtimeTransaction
    ) async throws -> RealtimeEvent {
        try await publish(channel: channel, type: type, json: Self.json(data), on: transaction)
    }

    /// A payload as the JSON text events carry (keys sorted, dates in ISO 8601).
    /// - Throws: when `data` cannot be encoded.
    public static func json(_ data: some Encodable) throws -> String {
        // The common payload (ids by name) without `JSONEncoder`: the same bytes
        // (`JSONObjectWriter.object`), a fraction of the cost.
        if let fields = data as? [String: String] { return String(decoding: JSONObjectWriter.object(fields), as: UTF8.self) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(data), as: UTF8.self)
    }

    /// Numbers and stores an event whose payload is already JSON text.
    /// - Throws: when the database fails.
    @discardableResult
    public func publish(
        channel: RealtimeChannel, type: String, json: String, on transaction: RealtimeTransaction
    ) async throws -> RealtimeEvent {
        let sql = transaction.sql
        let createdAt = clock.now().millisecondsSince1970
        let event: RealtimeEvent
        if sql.dialect.notifiesListeners {
            // One round trip; the NOTIFY is queued by PostgreSQL and sent to every listener
            // only if this transaction commits.
            let seq = try await store.publishOnPostgres(
                channel: channel.name, type: type, data: json, ownerUserID: channel.ownerUserID,
                createdAt: createdAt, notifyChannel: Self.notifyChannel, on: sql
            )
            event = RealtimeEvent(channel: channel.name, seq: seq, type: type, data: json, createdAt: createdAt)
        } else {
            let seq = try await store.nextSequence(channel.name, on: sql)
            event = RealtimeEvent(channel: channel.name, seq: seq, type: type, data: json, createdAt: createdAt)
            try await store.insert(event, ownerUserID: channel.ownerUserID, on: sql)
        }
        transaction.published.withLockedValue { $0.append(event) }
        return event
    }

    /// Numbers and stores several events whose payloads are already JSON text: one statement on
    /// PostgreSQL when their channels are distinct, one publish each otherwise.
    /// - Returns: the stored events, in the order given.
    /// - Throws: when the database fails.
    @discardableResult
    public func publish(
        _ events: [(channel: RealtimeChannel, type: String, json: String)], on transaction: RealtimeTransaction
    ) async throws -> [RealtimeEvent] {
        let sql = transaction.sql
        guard sql.dialect.notifiesListeners, events.count > 1, Set(events.map(\.channel)).count == events.count else {
            var published: [RealtimeEvent] = []
            for event in events {
                published.append(try await publish(channel: event.channel, type: event.type, json: event.json, on: transaction))
            }
            return published
        }
        let createdAt = clock.now().millisecondsSince1970
        let sequences = try await store.publishManyOnPostgres(
            events.map { ($0.channel.name, $0.type, $0.json, $0.channel.ownerUserID) }, createdAt: createdAt,
            notifyChannel: Self.notifyChannel, on: sql
        )
        let published = events.map { event in
            RealtimeEvent(
                channel: event.channel.name, seq: sequences[event.channel.name] ?? 0, type: event.type, data: event.json,
                createdAt: createdAt
            )
        }
        transaction.published.withLockedValue { $0.append(contentsOf: published) }
        return published
    }

    /// Hands committed events to this replica's subscribers (other replicas learn of them
    /// through NOTIFY). `transaction(_:)` calls it after commit.
    package func committed(_ events: [RealtimeEvent]) async {
        guard !events.isEmpty else { return }
        await broker.committedHere(events)
    }
}
