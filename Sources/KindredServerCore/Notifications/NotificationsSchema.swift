import KindredStore
import SQLKit

/// The tables of notifications. Append only: a change is a new migration at the end.
enum NotificationsSchema {
    /// The notifications migrations, in order.
    static let migrations: [Migration] = [createNotifications, indexDeliveriesByTime, recordTokenPrunes, userIndexes]

    /// Push tokens, notification settings, the per-user notification queue and its deliveries.
    static let createNotifications = Migration("0006_notifications") { sql in
        // One row per device: a token belongs to one account of an app at a time.
        try await sql.create(table: "kindred_push_tokens")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("transport", type: .text, .notNull)
            .column("token", type: .text, .notNull)
            .column("apns_environment", type: .text)
            .column("device_id", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .unique("app", "transport", "token")
            .run()
        try await sql.create(index: "kindred_push_tokens_user").on("kindred_push_tokens").column("user_id").run()

        // Quiet window as minutes after local midnight; opt-outs as a JSON array of types.
        try await sql.create(table: "kindred_notification_settings")
            .column("user_id", type: .text, .primaryKey(autoIncrement: false), .references("kindred_users", "id", onDelete: .cascade))
            .column("time_zone", type: .text)
            .column("quiet_start", type: .int)
            .column("quiet_end", type: .int)
            .column("opt_out", type: .text, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()

        // The per-user queue: `deliver_after` holds quiet-hour deferrals; `state` is
        // queued | sending | sent | failed | skipped.
        try await sql.create(table: "kindred_notifications")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("type", type: .text, .notNull)
            .column("title", type: .text, .notNull)
            .column("body", type: .text, .notNull)
            .column("data", type: .text, .notNull)
            .column("collapse_id", type: .text)
            .column("state", type: .text, .notNull)
            .column("attempts", type: .int, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("deliver_after", type: .bigint, .notNull)
            .column("sent_at", type: .bigint)
            .column("last_error", type: .text)
            .run()
        try await sql.create(index: "kindred_notifications_user").on("kindred_notifications")
            .column("user_id").column("created_at").run()
        try await sql.create(index: "kindred_notifications_state").on("kindred_notifications")
            .column("state").column("deliver_after").run()

        // What each provider accepted, per token: a retry never re-sends an accepted delivery.
        try await sql.create(table: "kindred_notification_deliveries")
            .column("notification_id", type: .text, .notNull, .references("kindred_notifications", "id", onDelete: .cascade))
            .column("token_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("provider_id", type: .text)
            .column("state", type: .text, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("notification_id", "token_id")
            .run()
    }

    /// The notifications domain's entry in the deletion/export registry.
    static let userDataEntry = UserDataEntry(
        domain: "notifications",
        tables: [
            UserDataTable("kindred_notification_deliveries"),
            // `data` is left out: ids for the app, and possibly a value sealed end to end for
            // the device (a SoulMate envelope), which is the sender's content, not the user's.
            UserDataTable("kindred_notifications", omitting: ["data"]),
            UserDataTable("kindred_notification_settings"),
            UserDataTable("kindred_push_tokens"),
        ]
    )
}
