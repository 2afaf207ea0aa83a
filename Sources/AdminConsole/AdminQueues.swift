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
    /// Items this replica completed per minute over the last hour, oldest first.
    var completed: [Int] = []
    /// Attempts that failed on this replica per minute over the last hour, oldest first.
    var failed: [Int] = []
    /// Items dead-lettered in the last hour (every replica).
    var deadLetteredLastHour = 0
}

extension AdminConsole {
    /// Every queue with pending items, dead letters or work done in the last hour: depth, due,
    /// retrying, oldest, dead letters (grouped by `queue`, which leads the indexes
    /// `kindred_queue_items_due` and `kindred_queue_dead_letters_queue`, the latter also giving
    /// the last hour's dead letters by (queue, failed_at)); completions and failed attempts per
    /// minute are this replica's worker's counts (`QueueWorker.completions`, `.failures`).
    func queueSummary() async throws -> [AdminQueueState] {
        let sql = sessions.database.sql
        let now = sessions.clock.now().millisecondsSince1970
        var states: [String: AdminQueueState] = [:]
        func empty(_ queue: String) -> AdminQueueState {
            AdminQueueState(queue: queue, depth: 0, due: 0, retrying: 0, oldest: nil, deadLetters: 0)
        }
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
        for row in try await sql.raw("""
            SELECT queue, COUNT(*) AS n, CAST(SUM(CASE WHEN failed_at >= \(bind: now - 3_600_000) THEN 1 ELSE 0 END) AS BIGINT) AS recent
            FROM kindred_queue_dead_letters GROUP BY queue
            """).all() {
            let queue = try row.decode(column: "queue", as: String.self)
            states[queue, default: empty(queue)].deadLetters = try row.decode(column: "n", as: Int.self)
            states[queue, default: empty(queue)].deadLetteredLastHour = try row.decode(column: "recent", as: Int?.self) ?? 0
        }
        for queue in Set(worker.completions.keys + worker.failures.keys) {
            let completed = worker.completions.series(queue)
            let failed = worker.failures.series(queue)
            guard states[queue] != nil || completed.contains(where: { $0 > 0 }) || failed.contains(where: { $0 > 0 }) else { continue }
            states[queue, default: empty(queue)].completed = completed
            states[queue, default: empty(queue)].failed = failed
        }
        return states.values.sorted { $0.queue < $1.queue }
    }
}
