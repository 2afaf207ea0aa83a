import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// One queue's state on the queues page.
struct AdminQueueState: Sendable, Equatable {
    var queue: String
    /// Items not yet done.
    var depth: Int
    /// Of those, how many may run now.
    var due: Int
    /// Of those, how many failed at least once and wait for a retry.
    var retrying: Int
    /// When the oldest pending item was enqueued.
    var oldest: Date?
    /// Dead letters kept for the queue.
    var deadLetters: Int
}

extension AdminConsole {
    /// Every queue with pending items or dead letters: depth, due, retrying, oldest, dead letters.
    /// Grouped by `queue`, which leads the indexes `kindred_queue_items_due` and
    /// `kindred_queue_dead_letters_queue`.
    func queueSummary() async throws -> [AdminQueueState] {
        let sql = sessions.database.sql
        let now = sessions.clock.now().millisecondsSince1970
        var states: [String: AdminQueueState] = [:]
        for row in try await sql.raw("""
            SELECT queue, COUNT(*) AS depth, CAST(SUM(CASE WHEN run_at <= \(bind: now) THEN 1 ELSE 0 END) AS BIGINT) AS due,
            CAST(SUM(CASE WHEN attempts > 0 THEN 1 ELSE 0 END) AS BIGINT) AS retrying, MIN(created_at) AS oldest
            FROM kindred_queue_items GROUP BY queue
            """).all() {
            let queue = try row.decode(column: "queue", as: String.self)
            states[queue] = AdminQueueState(
                queue: queue, depth: try row.decode(column: "depth", as: Int.self),
                due: try row.decode(column: "due", as: Int?.self) ?? 0,
                retrying: try row.decode(column: "retrying", as: Int?.self) ?? 0,
                oldest: try row.decode(column: "oldest", as: Int64?.self).map(Date.init(millisecondsSince1970:)),
                deadLetters: 0
            )
        }
        for row in try await sql.raw("SELECT queue, COUNT(*) AS n FROM kindred_queue_dead_letters GROUP BY queue").all() {
            let queue = try row.decode(column: "queue", as: String.self)
            states[queue, default: AdminQueueState(queue: queue, depth: 0, due: 0, retrying: 0, oldest: nil, deadLetters: 0)]
                .deadLetters = try row.decode(column: "n", as: Int.self)
        }
        return states.values.sorted { $0.queue < $1.queue }
    }
}
