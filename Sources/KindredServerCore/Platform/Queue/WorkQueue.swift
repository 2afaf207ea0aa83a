import Foundation
import KindredStore
import SQLKit

/// A durable work queue in the server's database: work enqueued inside the caller's
/// transaction exists exactly when that transaction commits, and is done at least once,
/// retried with backoff, and dead-lettered when it keeps failing.
///
/// Workers (`QueueWorker`) claim items with a lease; an item whose worker died is claimed
/// again when its lease ends. Handlers must therefore be idempotent for the rare case of a
/// crash between the work and its completion being recorded.
public struct WorkQueue: Sendable {
    package let database: Database
    package let clock: any WallClock
    /// Draws the jitter of a retry delay, uniformly from 0 ... 1.
    package let random: @Sendable () -> Double
    /// Wakes idle workers of this process after an enqueue committed.
    let signal: WakeSignal
    /// Writes concurrent keyed enqueues together (PostgreSQL; nil on SQLite, whose group commit
    /// already shares one commit among concurrent transactions).
    let batcher: EnqueueBatcher?

    /// Creates the queue.
    /// - Parameters:
    ///   - database: the server's database (migrated with `ServerMigrations.all`).
    ///   - clock: what "due" and "expired lease" are measured with.
    ///   - random: the jitter source (tests pin it).
    public init(
        database: Database, clock: any WallClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.database = database
        self.clock = clock
        self.random = random
        self.signal = WakeSignal()
        self.batcher = database.sql.dialect.bindsArrays ? EnqueueBatcher(database: database) : nil
    }

    /// Adds an item inside the caller's transaction, so it exists iff that transaction commits.
    ///
    /// Call `wake()` after the commit to have this process's workers pick it up at once
    /// (otherwise they find it on their next poll).
    /// - Parameters:
    ///   - queue: the queue's name (1–100 of `a-z 0-9 . _ -`).
    ///   - payload: the work's description, usually JSON.
    ///   - runAt: not before this time (now by default).
    ///   - dedupeKey: an idempotency key, unique per queue: a second enqueue with the same key
    ///     (while the first is pending, or within the key retention after it) is a `.duplicate`.
    ///   - sql: the caller's transaction (`database.transaction { sql in … }`).
    /// - Returns: `.enqueued(id:)` or `.duplicate`.
    /// - Throws: `QueueError` for a bad name or key; database errors.
    @discardableResult
    public func enqueue(
        queue: String, payload: String, runAt: Date? = nil, dedupeKey: String? = nil, on sql: any SQLDatabase
    ) async throws -> EnqueueResult {
        try Self.validate(queue: queue)
        let now = clock.now().millisecondsSince1970
        // Written-out statements: on SQLite these run on the group commit's writer thread, where
        // SQLKit's builders spent more time serializing (escaping each identifier) than SQLite
        // spent inserting.
        if let dedupeKey {
            guard (1...200).contains(dedupeKey.utf8.count) else { throw QueueError.invalidDedupeKey }
            let inserted = try await sql.raw("""
                INSERT INTO kindred_queue_dedupe_keys (queue, dedupe_key, created_at) \
                VALUES (\(bind: queue), \(bind: dedupeKey), \(bind: now)) ON CONFLICT DO NOTHING RETURNING dedupe_key
                """).all()
            guard !inserted.isEmpty else { return .duplicate }
        }
        let id = RandomID.make()
        try await sql.raw("""
            INSERT INTO kindred_queue_items (id, queue, payload, dedupe_key, attempts, run_at, created_at) \
            VALUES (\(bind: id), \(bind: queue), \(bind: payload), \(bind: dedupeKey), 0, \
            \(bind: runAt?.millisecondsSince1970 ?? now), \(bind: now))
            """).run()
        return .enqueued(id: id)
    }

    /// Adds an item whose payload is `value` as JSON (sorted keys), inside the caller's transaction.
    /// - Throws: `QueueError.unencodablePayload`, and what `enqueue(queue:payload:…)` throws.
    @discardableResult
    public func enqueue(
        queue: String, json value: some Encodable & Sendable, runAt: Date? = nil, dedupeKey: String? = nil,
        on sql: any SQLDatabase
    ) async throws -> EnqueueResult {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload: String
        do {
            payload = String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw QueueError.unencodablePayload("\(error)")
        }
        return try await enqueue(queue: queue, payload: payload, runAt: runAt, dedupeKey: dedupeKey, on: sql)
    }

    /// Adds an item in a transaction of its own, then wakes this process's workers.
    ///
    /// On PostgreSQL an item with a key is written by `EnqueueBatcher`: one statement (the keys'
    /// inserts and the items' in one `WITH … INSERT`, atomic without a transaction block) for
    /// every keyed enqueue that arrived while the previous one was written.
    @discardableResult
    public func enqueue(queue: String, payload: String, runAt: Date? = nil, dedupeKey: String? = nil) async throws -> EnqueueResult {
        let result: EnqueueResult
        if let dedupeKey, let batcher {
            try Self.validate(queue: queue)
            guard (1...200).contains(dedupeKey.utf8.count) else { throw QueueError.invalidDedupeKey }
            let now = clock.now().millisecondsSince1970
            result = try await batcher.enqueue(
                EnqueueBatcher.Request(
                    id: RandomID.make(), queue: queue, payload: payload, dedupeKey: dedupeKey,
                    runAt: runAt?.millisecondsSince1970 ?? now, now: now
                )
            )
        } else {
            result = try await database.transaction { sql in
                try await self.enqueue(queue: queue, payload: payload, runAt: runAt, dedupeKey: dedupeKey, on: sql)
            }
        }
        wake()
        return result
    }

    /// Wakes this process's idle workers (call after committing an enqueue).
    public func wake() { signal.signal() }

    /// Items waiting in `queue` (claimed or not), for tests and operators.
    public func pendingCount(queue: String) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("kindred_queue_items").where("queue", .equal, queue)
            .first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Deletes idempotency keys enqueued more than `retention` ago, at most `limit` of them.
    /// - Returns: how many were deleted.
    public func pruneDedupeKeys(retention: Duration, limit: Int) async throws -> Int {
        let cutoff = clock.now().millisecondsSince1970 - retention.milliseconds
        let rows = try await database.sql.select().columns("queue", "dedupe_key").from("kindred_queue_dedupe_keys")
            .where("created_at", .lessThanOrEqual, cutoff).limit(limit).all()
        guard !rows.isEmpty else { return 0 }
        let pairs = try rows.map { (try $0.decode(column: "queue", as: String.self), try $0.decode(column: "dedupe_key", as: String.self)) }
        try await database.sql.delete(from: "kindred_queue_dedupe_keys")
            .where(group: { group in
                pairs.reduce(group) { group, pair in
                    group.orWhere(group: { $0.where("queue", .equal, pair.0).where("dedupe_key", .equal, pair.1) })
                }
            })
            .run()
        return rows.count
    }

    /// Checks a queue name: 1–100 of `a-z 0-9 . _ -`.
    package static func validate(queue: String) throws(QueueError) {
        guard Job.isValidName(queue) else { throw .invalidQueueName(queue) }
    }
}
