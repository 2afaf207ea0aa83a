import Foundation
import KindredStore
import SQLKit

extension WorkQueue {
    /// Dead letters, newest first.
    /// - Parameters:
    ///   - queue: only this queue's (all queues when nil).
    ///   - limit: the most returned.
    public func deadLetters(queue: String? = nil, limit: Int = 100) async throws -> [DeadLetter] {
        // An operator's listing (the console, `kindred queue dead-letters`): off the request threads.
        try await database.longRead { sql in
            var select = sql.select().column("*").from("kindred_queue_dead_letters")
            if let queue { select = select.where("queue", .equal, queue) }
            return try await select.orderBy("failed_at", .descending).orderBy("id").limit(limit).all().map { row in
            DeadLetter(
                id: try row.decode(column: "id", as: String.self),
                queue: try row.decode(column: "queue", as: String.self),
                payload: try row.decode(column: "payload", as: String.self),
                dedupeKey: try row.decode(column: "dedupe_key", as: String?.self),
                attempts: try row.decode(column: "attempts", as: Int.self),
                lastError: try row.decode(column: "last_error", as: String.self),
                createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
                failedAt: Date(millisecondsSince1970: try row.decode(column: "failed_at", as: Int64.self))
                )
            }
        }
    }

    /// Puts one dead letter back on its queue, due now, with its attempts reset to zero.
    /// - Throws: `QueueError.unknownDeadLetter` when there is no dead letter `id`.
    public func redrive(id: String) async throws {
        let now = clock.now().millisecondsSince1970
        let moved = try await database.transaction { sql in try await Self.redrive(ids: [id], now: now, on: sql) }
        guard moved == 1 else { throw QueueError.unknownDeadLetter(id) }
        wake()
    }

    /// Puts every dead letter (of `queue`, or of all queues) back, in batches of 500.
    /// - Returns: how many were re-driven.
    @discardableResult
    public func redriveAll(queue: String? = nil) async throws -> Int {
        var total = 0
        while true {
            let now = clock.now().millisecondsSince1970
            let moved = try await database.transaction { sql in
                var select = sql.select().column("id").from("kindred_queue_dead_letters")
                if let queue { select = select.where("queue", .equal, queue) }
                let ids = try await select.orderBy("failed_at").limit(500).all().map { try $0.decode(column: "id", as: String.self) }
                return try await Self.redrive(ids: ids, now: now, on: sql)
            }
            total += moved
            if moved < 500 { break }
        }
        if total > 0 { wake() }
        return total
    }

    /// Moves the dead letters `ids` back to the queue (inside the caller's transaction).
    private static func redrive(ids: [String], now: Int64, on sql: any SQLDatabase) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let rows = try await sql.select().column("*").from("kindred_queue_dead_letters").where("id", .in, ids).all()
        for row in rows {
            try await sql.insert(into: "kindred_queue_items")
                .columns("id", "queue", "payload", "dedupe_key", "attempts", "run_at", "created_at")
                .values(
                    SQLBind(try row.decode(column: "id", as: String.self)),
                    SQLBind(try row.decode(column: "queue", as: String.self)),
                    SQLBind(try row.decode(column: "payload", as: String.self)),
                    SQLBind(try row.decode(column: "dedupe_key", as: String?.self)), SQLBind(0), SQLBind(now),
                    SQLBind(try row.decode(column: "created_at", as: Int64.self))
                )
                .run()
        }
        try await sql.delete(from: "kindred_queue_dead_letters").where("id", .in, ids).run()
        return rows.count
    }
}
