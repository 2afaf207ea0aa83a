import KindredServerCore
import KindredStore
import SQLKit

/// Ex-Eraser's one table (docs/exeraser.md, "What the server keeps"): anonymous analytics events.
///
/// `exeraser_analytics_events` has no user, address, device or batch column on purpose: an event
/// is its name, its checked properties (canonical JSON) and the hour it happened (seconds since
/// 1970, a multiple of 3600), under a random id. Nothing in it can be traced to an account, so it
/// is not user data: account deletion and export have nothing to do here (`EraserDomain.userData`
/// is empty, and a test proves the table has no user column).
enum EraserSchema {
    static let migrations: [Migration] = [
        Migration("exeraser_0001_analytics") { sql in
            try await sql.create(table: "exeraser_analytics_events")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("event", type: .text, .notNull)
                .column("properties", type: .text, .notNull)
                .column("occurred_hour", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "exeraser_analytics_events_hour").on("exeraser_analytics_events")
                .column("occurred_hour").run()
        }
    ]
}
