import KindredStore
import SQLKit

/// The tables of the realtime service. Append only: a change is a new migration at the end.
enum RealtimeSchema {
    /// The realtime migrations, in order.
    static let migrations: [Migration] = [createRealtime, userIndexes]

    /// Channel sequence counters, retained events and WebSocket tickets.
    static let createRealtime = Migration("0005_realtime") { sql in
        // One row per channel that ever had an event: the last sequence number handed out.
        // Publishers update it inside their transaction, which also serialises them per channel.
        // Rows are never deleted, so a channel's numbering never restarts.
        try await sql.create(table: "kindred_realtime_channels")
            .column("channel", type: .text, .primaryKey(autoIncrement: false))
            .column("last_seq", type: .bigint, .notNull)
            .run()
        // Retained events (bounded by age and count per channel; see RealtimeEventStore.pruneExpired).
        // `user_id` is the owner of a private channel (`user:<id>`), NULL on shared channels.
        try await sql.create(table: "kindred_realtime_events")
            .column("channel", type: .text, .notNull)
            .column("seq", type: .bigint, .notNull)
            .column("type", type: .text, .notNull)
            .column("data", type: .text, .notNull)
            .column("user_id", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("channel", "seq")
            .run()
        try await sql.create(index: "kindred_realtime_events_created").on("kindred_realtime_events")
            .column("created_at").run()
        try await sql.create(index: "kindred_realtime_events_user").on("kindred_realtime_events")
            .column("user_id").run()
        // Single-use tickets for WebSocket upgrades that cannot carry a bearer header; stored as
        // SHA-256 hashes, deleted when used.
        try await sql.create(table: "kindred_realtime_tickets")
            .column("ticket_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("session_id", type: .text, .notNull)
            .column("app", type: .text, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_realtime_tickets_expires").on("kindred_realtime_tickets")
            .column("expires_at").run()
    }

    /// The realtime tables that hold a user's data, for account deletion and export.
    static let userDataEntry = UserDataEntry(
        domain: "realtime",
        tables: [
            UserDataTable("kindred_realtime_events"),
            UserDataTable("kindred_realtime_tickets", omitting: ["ticket_hash"]),
        ]
    )
}
