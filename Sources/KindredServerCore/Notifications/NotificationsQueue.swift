import Foundation
import KindredStore
import SQLKit

/// The work-queue side of notifications: one item per queued notification, handled by the
/// dispatcher, plus the retention job for sent ones.
public enum NotificationsQueue {
    /// The queue's name.
    public static let name = "notifications.dispatch"

    /// What a failed dispatch throws, so the queue retries it with backoff.
    package struct RetryLater: Error, CustomStringConvertible {
        package var description: String
    }

    /// The handler: `sent`/`skipped` complete the item; `deferred` re-queues it for the end of
    /// the quiet window (not a failed attempt); `retry` throws, so the queue backs off and, after
    /// its last attempt, dead-letters the item (the notification is then marked `failed`).
    /// A claim of up to 16 items is dispatched as one batch (`NotificationDispatcher.dispatch(batch:…)`:
    /// one read, one transaction that also completes the items); a batch whose transaction fails
    /// is dispatched again one item at a time through the closure below.
    public static func handler(dispatcher: NotificationDispatcher, queue: WorkQueue, policy: RetryPolicy = RetryPolicy()) -> QueueHandler {
        let batch = QueueBatchHandler(laneSize: 16, partition: \.payload) { items in
            try await dispatcher.dispatch(batch: items, queue: queue, policy: policy)
        }
        return QueueHandler(queue: name, policy: policy, lease: .seconds(120), concurrency: 16, batch: batch) { item in
            let id = item.payload
            switch try await dispatcher.dispatch(id) {
            case .sent, .skipped:
                return
            case .deferred(let until):
                _ = try await queue.enqueue(
                    queue: name, payload: id, runAt: until, dedupeKey: "\(id)@\(Int(until.timeIntervalSince1970))"
                )
            case .retry(let reason, _):
                if item.attempt >= policy.maxAttempts {
                    try await dispatcher.markFailed(id, reason: reason)
                }
                throw RetryLater(description: reason)
            }
        }
    }

    /// How long sent, skipped and failed notifications are kept (30 days).
    package static let retention: Duration = .seconds(30 * 86_400)

    /// How long the per-day counts of pruned push tokens (`kindred_push_token_prunes`) are kept:
    /// 90 days, three times the 30 days the console's push page shows.
    package static let pruneCountRetention: Duration = .seconds(90 * 86_400)

    /// Registers `notifications.purge-sent`: daily, paged; then the pruned-token counts past
    /// `pruneCountRetention`.
    package static func registerJobs(on platform: Platform) throws(JobError) {
        try platform.jobs.register(
            Job("notifications.purge-sent", schedule: "23 4 * * *") { context in
                let deleted = try await context.forEachPage(limit: 500) { limit in
                    try await purge(database: context.database, clock: context.clock, retention: retention, limit: limit)
                }
                let counts = try await purgePruneCounts(database: context.database, clock: context.clock, retention: pruneCountRetention)
                return "deleted \(deleted) notifications older than 30 days and \(counts) pruned-token counts older than 90 days"
            }
        )
    }

    /// Deletes the pruned-token counts of UTC days that started more than `retention` before
    /// the start of today (UTC), through `kindred_push_token_prunes_day`. One statement: the
    /// table holds one row per app, transport and day, so a day's rows are few.
    /// - Returns: how many rows were deleted.
    package static func purgePruneCounts(database: Database, clock: any WallClock, retention: Duration) async throws -> Int {
        let now = clock.now().millisecondsSince1970
        let today = now - ((now % 86_400_000) + 86_400_000) % 86_400_000
        let cutoff = today - retention.milliseconds
        return try await database.transaction { sql in
            let count = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("kindred_push_token_prunes").where("day", .lessThan, cutoff)
                .first()?.decode(column: "n", as: Int.self) ?? 0
            if count > 0 {
                try await sql.delete(from: "kindred_push_token_prunes").where("day", .lessThan, cutoff).run()
            }
            return count
        }
    }

    /// Deletes sent, skipped and failed notifications older than `retention`, a page at a time.
    package static func purge(database: Database, clock: any WallClock, retention: Duration, limit: Int) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-retention.timeInterval).millisecondsSince1970
        let ids = try await database.sql.select().column("id").from("kindred_notifications")
            .where("state", .in, ["sent", "skipped", "failed"]).where("created_at", .lessThan, cutoff)
            .limit(limit).all().map { try $0.decode(column: "id", as: String.self) }
        guard !ids.isEmpty else { return 0 }
        try await database.sql.delete(from: "kindred_notifications").where("id", .in, ids).run()
        return ids.count
    }
}
