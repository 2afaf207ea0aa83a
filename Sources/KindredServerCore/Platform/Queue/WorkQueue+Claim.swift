import Foundation
import KindredStore
import SQLKit

extension WorkQueue {
    /// What became of a failed item.
    public enum FailureOutcome: Sendable, Equatable {
        /// It will be retried at this time.
        case retry(at: Date)
        /// It failed its last attempt and moved to the dead-letter table.
        case deadLettered
        /// The claim was no longer current (its lease had expired and it was claimed again).
        case stale
    }

    /// Claims up to `limit` due items of `queue`, oldest due first, for `lease`.
    ///
    /// PostgreSQL selects them `FOR UPDATE SKIP LOCKED`, so concurrent claimers take disjoint
    /// items without waiting; SQLite claims in one write transaction (a single claimer at a
    /// time). Each claim counts an attempt and moves `run_at` to the lease's end. An item whose
    /// lease expired after its last allowed attempt is dead-lettered instead of claimed.
    /// - Parameters:
    ///   - queue: the queue.
    ///   - limit: the most items to claim.
    ///   - lease: how long the claimer has before the items may be claimed again.
    ///   - maxAttempts: the queue's attempt limit.
    /// - Returns: the claimed items.
    public func claim(queue: String, limit: Int, lease: Duration, maxAttempts: Int) async throws -> [QueueItem] {
        guard limit >= 1 else { return [] }
        let now = clock.now().millisecondsSince1970
        let leaseEnd = now + max(1, lease.milliseconds)
        let token = UUID().uuidString.lowercased()
        if database.sql.dialect.hasConcurrentWriters {
            return try await claimOnPostgres(
                queue: queue, limit: limit, now: now, leaseEnd: leaseEnd, token: token, maxAttempts: maxAttempts
            )
        }
        return try await database.transaction { sql in
            let due = try await sql.select().columns("id", "attempts").from("kindred_queue_items")
                .where("queue", .equal, queue).where("run_at", .lessThanOrEqual, now)
                .orderBy("run_at").limit(limit)
                .lockingClause(SkipLockedUpdate())
                .all()
            var claimable: [String] = []
            var exhausted: [String] = []
            for row in due {
                let id = try row.decode(column: "id", as: String.self)
                if try row.decode(column: "attempts", as: Int.self) >= maxAttempts {
                    exhausted.append(id)
                } else {
                    claimable.append(id)
                }
            }
            for id in exhausted {
                try await Self.deadLetter(id: id, error: nil, now: now, on: sql)
            }
            guard !claimable.isEmpty else { return [] }
            return try await sql.update("kindred_queue_items")
                .set("attempts", to: SQLBinaryExpression(SQLIdentifier("attempts"), .add, SQLLiteral.numeric("1")))
                .set("run_at", to: leaseEnd).set("lease_until", to: leaseEnd).set("claim_token", to: token)
                .where("id", .in, claimable)
                .returning("id", "queue", "payload", "dedupe_key", "attempts", "created_at")
                .all()
                .map { row in try Self.claimed(row, leaseEnd: leaseEnd, token: token) }
                .sorted { $0.createdAt < $1.createdAt }
        }
    }

    /// PostgreSQL: the claim as one autocommit statement (one round trip instead of four: a
    /// claim follows every finished item, so this is a large share of a queue's round trips).
    /// The due rows are locked with `SKIP LOCKED` and updated in the same statement; rows out of
    /// attempts are returned unclaimed and dead-lettered in a transaction of their own.
    private func claimOnPostgres(
        queue: String, limit: Int, now: Int64, leaseEnd: Int64, token: String, maxAttempts: Int
    ) async throws -> [QueueItem] {
        let rows = try await database.sql.raw("""
            WITH due AS (
                SELECT id, attempts FROM kindred_queue_items
                WHERE queue = \(bind: queue) AND run_at <= \(bind: now)
                ORDER BY run_at LIMIT \(bind: limit)
                FOR UPDATE SKIP LOCKED
            ), claimed AS (
                UPDATE kindred_queue_items AS item
                SET attempts = item.attempts + 1, run_at = \(bind: leaseEnd), lease_until = \(bind: leaseEnd),
                    claim_token = \(bind: token)
                FROM due WHERE item.id = due.id AND due.attempts < \(bind: maxAttempts)
                RETURNING item.id, item.queue, item.payload, item.dedupe_key, item.attempts, item.created_at
            )
            SELECT id, queue, payload, dedupe_key, attempts, created_at, FALSE AS exhausted FROM claimed
            UNION ALL
            SELECT id, NULL, NULL, NULL, attempts, NULL, TRUE FROM due WHERE attempts >= \(bind: maxAttempts)
            """).all()
        var items: [QueueItem] = []
        var exhausted: [String] = []
        for row in rows {
            if try row.decode(column: "exhausted", as: Bool.self) {
                exhausted.append(try row.decode(column: "id", as: String.self))
            } else {
                items.append(try Self.claimed(row, leaseEnd: leaseEnd, token: token))
            }
        }
        if !exhausted.isEmpty {
            try await database.transaction { [exhausted] sql in
                // Re-read under a lock: another worker may have dead-lettered one meanwhile.
                let still = try await sql.select().column("id").from("kindred_queue_items")
                    .where("id", .in, exhausted).where("attempts", .greaterThanOrEqual, maxAttempts)
                    .lockingClause(SkipLockedUpdate()).all()
                for row in still {
                    try await Self.deadLetter(id: try row.decode(column: "id", as: String.self), error: nil, now: now, on: sql)
                }
            }
        }
        return items.sorted { $0.createdAt < $1.createdAt }
    }

    /// A claimed row as an item.
    private static func claimed(_ row: any SQLRow, leaseEnd: Int64, token: String) throws -> QueueItem {
        QueueItem(
            id: try row.decode(column: "id", as: String.self),
            queue: try row.decode(column: "queue", as: String.self),
            payload: try row.decode(column: "payload", as: String.self),
            dedupeKey: try row.decode(column: "dedupe_key", as: String?.self),
            attempt: try row.decode(column: "attempts", as: Int.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            leaseUntil: Date(millisecondsSince1970: leaseEnd),
            claimToken: token
        )
    }

    /// Marks a claimed item done (deletes it).
    /// - Returns: false when the claim was no longer current (the item was claimed again).
    @discardableResult
    public func complete(_ item: QueueItem) async throws -> Bool {
        // On SQLite a transaction, not an autocommit statement: concurrent completions then
        // share commits with the other writers (group commit), instead of one fsync each. On
        // PostgreSQL one autocommit statement (one round trip, not three).
        let delete: @Sendable (any SQLDatabase) async throws -> Int = { sql in
            try await sql.delete(from: "kindred_queue_items")
                .where("id", .equal, item.id).where("claim_token", .equal, item.claimToken)
                .returning("id").all().count
        }
        let deleted = database.sql.dialect.hasConcurrentWriters
            ? try await delete(database.sql) : try await database.transaction { sql in try await delete(sql) }
        return deleted == 1
    }

    /// Marks claimed items done inside the caller's transaction (one DELETE per claim), so the
    /// completion commits with the items' effects. Batch handlers call it.
    /// - Returns: how many were still claimed (the others' leases expired and were claimed again).
    @discardableResult
    public static func complete(_ items: [QueueItem], on sql: any SQLDatabase) async throws -> Int {
        var deleted = 0
        for (token, claimed) in Dictionary(grouping: items, by: \.claimToken) {
            deleted += try await sql.delete(from: "kindred_queue_items")
                .where("id", .in, claimed.map(\.id)).where("claim_token", .equal, token)
                .returning("id").all().count
        }
        return deleted
    }

    /// Records a failed attempt: schedules a retry with full-jitter backoff, or, after the
    /// policy's last attempt, moves the item to the dead-letter table with `error`.
    @discardableResult
    public func fail(_ item: QueueItem, error: String, policy: RetryPolicy) async throws -> FailureOutcome {
        let now = clock.now()
        let message = String(error.prefix(2_000))
        let retryAt = now.addingTimeInterval(policy.delay(afterAttempt: item.attempt, unit: random()).timeInterval)
        return try await database.transaction { sql in
            guard let row = try await sql.select().column("attempts").from("kindred_queue_items")
                .where("id", .equal, item.id).where("claim_token", .equal, item.claimToken)
                .lockingClause(SQLLockingClause.update).first()
            else { return .stale }
            if try row.decode(column: "attempts", as: Int.self) >= policy.maxAttempts {
                try await Self.deadLetter(id: item.id, error: message, now: now.millisecondsSince1970, on: sql)
                return .deadLettered
            }
            try await sql.update("kindred_queue_items")
                .set("run_at", to: retryAt.millisecondsSince1970).set("lease_until", to: SQLLiteral.null)
                .set("claim_token", to: SQLLiteral.null).set("last_error", to: message)
                .where("id", .equal, item.id).run()
            return .retry(at: retryAt)
        }
    }

    /// Moves an item to the dead-letter table (inside the caller's transaction). A nil `error`
    /// means its last lease expired without an answer.
    package static func deadLetter(id: String, error: String?, now: Int64, on sql: any SQLDatabase) async throws {
        guard let row = try await sql.select().column("*").from("kindred_queue_items").where("id", .equal, id).first()
        else { return }
        let attempts = try row.decode(column: "attempts", as: Int.self)
        let previous = try row.decode(column: "last_error", as: String?.self)
        let reason = error ?? "the worker's lease of attempt \(attempts) expired" + (previous.map { " (earlier error: \($0))" } ?? "")
        try await sql.insert(into: "kindred_queue_dead_letters")
            .columns("id", "queue", "payload", "dedupe_key", "attempts", "last_error", "created_at", "failed_at")
            .values(
                SQLBind(id), SQLBind(try row.decode(column: "queue", as: String.self)),
                SQLBind(try row.decode(column: "payload", as: String.self)),
                SQLBind(try row.decode(column: "dedupe_key", as: String?.self)), SQLBind(attempts),
                SQLBind(String(reason.prefix(2_000))), SQLBind(try row.decode(column: "created_at", as: Int64.self)),
                SQLBind(now)
            )
            .run()
        try await sql.delete(from: "kindred_queue_items").where("id", .equal, id).run()
    }
}

/// `FOR UPDATE SKIP LOCKED` where the dialect has row locks (PostgreSQL); nothing elsewhere
/// (SQLite, whose write transaction already makes the claimer the only one).
struct SkipLockedUpdate: SQLExpression {
    func serialize(to serializer: inout SQLSerializer) {
        guard let lock = serializer.dialect.exclusiveSelectLockExpression else { return }
        lock.serialize(to: &serializer)
        serializer.write(" SKIP LOCKED")
    }
}
