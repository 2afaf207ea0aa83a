import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// One app and transport's deliveries over the last 30 days.
struct AdminPushLine: Sendable, Equatable {
    /// The notification's app.
    var app: String
    /// `apns`, `fcm`, or `removed token` when the token was deleted since.
    var transport: String
    /// Deliveries the provider accepted, per UTC day, oldest first (30 days).
    var delivered: [Int]
    /// Deliveries the provider refused for good, per UTC day, oldest first (30 days).
    var failed: [Int]
    /// Tokens deleted because the provider rejected them as invalid, per UTC day, oldest first (30 days).
    var pruned: [Int]
}

/// The notification outbox's backlog: notifications not yet sent.
struct AdminPushBacklog: Sendable, Equatable {
    /// Queued or being sent.
    var waiting: Int
    /// Of those, deferred past now (quiet hours).
    var deferred: Int
    /// When the oldest waiting one was created.
    var oldest: Date?
}

/// The push page's reads: deliveries per app, transport and day (a range scan of
/// `kindred_notification_deliveries_time`), pruned tokens (`kindred_push_token_prunes_day`), the outbox's backlog and the notifications the
/// queue gave up on (both read `kindred_notifications_state` (state, deliver_after)).
struct AdminPush: Sendable {
    let database: Database

    /// Deliveries per app and transport over the 30 UTC days ending with `now`'s, sorted.
    func lines(now: Date) async throws -> [AdminPushLine] {
        let days = AdminOverviews.dayStarts(endingAt: now)
        guard let start = days.first else { return [] }
        var lines: [String: AdminPushLine] = [:]
        // Grouped by the select list's positions: the day expression, whose `start` is bound, is
        // written once (PostgreSQL would take a second bind in GROUP BY for another expression).
        for row in try await database.sql.raw("""
            SELECT n.app AS app, COALESCE(t.transport, 'removed token') AS transport, dl.state AS state,
            (dl.updated_at - \(bind: start)) / 86400000 AS day_index, COUNT(*) AS n
            FROM kindred_notification_deliveries dl
            JOIN kindred_notifications n ON n.id = dl.notification_id
            LEFT JOIN kindred_push_tokens t ON t.id = dl.token_id
            WHERE dl.updated_at >= \(bind: start)
            GROUP BY 1, 2, 3, 4
            """).all() {
            let app = try row.decode(column: "app", as: String.self)
            let transport = try row.decode(column: "transport", as: String.self)
            let day = try row.decode(column: "day_index", as: Int64.self)
            guard day >= 0, day < Int64(days.count) else { continue }
            let key = app + "\u{0}" + transport
            var line = lines[key] ?? AdminPushLine(
                app: app, transport: transport, delivered: Array(repeating: 0, count: days.count),
                failed: Array(repeating: 0, count: days.count), pruned: Array(repeating: 0, count: days.count)
            )
            let count = try row.decode(column: "n", as: Int.self)
            if try row.decode(column: "state", as: String.self) == "accepted" {
                line.delivered[Int(day)] += count
            } else {
                line.failed[Int(day)] += count
            }
            lines[key] = line
        }
        // Pruned tokens per app, transport and day (`kindred_push_token_prunes_day`).
        for row in try await database.sql.raw("""
            SELECT app, transport, day, pruned FROM kindred_push_token_prunes WHERE day >= \(bind: start)
            """).all() {
            let app = try row.decode(column: "app", as: String.self)
            let transport = try row.decode(column: "transport", as: String.self)
            let day = (try row.decode(column: "day", as: Int64.self) - start) / 86_400_000
            guard day >= 0, day < Int64(days.count) else { continue }
            let key = app + "\u{0}" + transport
            var line = lines[key] ?? AdminPushLine(
                app: app, transport: transport, delivered: Array(repeating: 0, count: days.count),
                failed: Array(repeating: 0, count: days.count), pruned: Array(repeating: 0, count: days.count)
            )
            line.pruned[Int(day)] += try row.decode(column: "pruned", as: Int.self)
            lines[key] = line
        }
        return lines.values.sorted { ($0.app, $0.transport) < ($1.app, $1.transport) }
    }

    /// The notifications not yet sent at `now`.
    func backlog(now: Date) async throws -> AdminPushBacklog {
        let row = try await database.sql.raw("""
            SELECT COUNT(*) AS n, CAST(SUM(CASE WHEN deliver_after > \(bind: now.millisecondsSince1970) THEN 1 ELSE 0 END) AS BIGINT) AS deferred,
            MIN(created_at) AS oldest FROM kindred_notifications WHERE state IN ('queued', 'sending')
            """).first()
        return AdminPushBacklog(
            waiting: try row?.decode(column: "n", as: Int.self) ?? 0,
            deferred: try row?.decode(column: "deferred", as: Int?.self) ?? 0,
            oldest: try row?.decode(column: "oldest", as: Int64?.self).map(Date.init(millisecondsSince1970:))
        )
    }

    /// Per app, the notifications the queue gave up on (`failed`) due in the 30 days ending with `now`'s.
    func givenUp(now: Date) async throws -> [(app: String, count: Int)] {
        guard let start = AdminOverviews.dayStarts(endingAt: now).first else { return [] }
        return try await database.sql.raw("""
            SELECT app, COUNT(*) AS n FROM kindred_notifications
            WHERE state = 'failed' AND deliver_after >= \(bind: start) GROUP BY app ORDER BY app
            """).all().map { (try $0.decode(column: "app", as: String.self), try $0.decode(column: "n", as: Int.self)) }
    }
}
