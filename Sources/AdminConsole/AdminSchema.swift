import KindredServerCore
import KindredStore
import SQLKit

/// The tables of the operators' admin console. Append only: a change is a new migration at the end.
///
/// Operators are not app users: they have their own table, so an app account (whatever its
/// password) can never open the console, and the account deletion registry does not cover
/// them (no `user_id` column).
enum AdminSchema {
    /// The admin console's migrations, in order.
    static let migrations: [Migration] = [createAdmin, addFlash, createAudit, addTimeZone]

    /// Operators and their console sessions.
    static let createAdmin = Migration("0009_admin_console") { sql in
        try await sql.create(table: "kindred_admin_operators")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("email", type: .text, .notNull, .unique)
            .column("password_hash", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("disabled_at", type: .bigint)
            .run()

        // A session is one sign-in in one browser. The cookie holds a random token; only its
        // SHA-256 is stored, so a copy of the table opens no session.
        try await sql.create(table: "kindred_admin_sessions")
            .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("operator_id", type: .text, .notNull, .references("kindred_admin_operators", "id", onDelete: .cascade))
            .column("csrf_token", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("last_seen_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_admin_sessions_operator").on("kindred_admin_sessions")
            .column("operator_id").run()
        try await sql.create(index: "kindred_admin_sessions_expiry").on("kindred_admin_sessions")
            .column("expires_at").run()
    }

    /// A one-shot notice per session (Post/Redirect/Get): a form's POST stores what it did, the
    /// page it redirects to shows it once and clears it.
    static let addFlash = Migration("0009b_admin_session_flash") { sql in
        try await sql.alter(table: "kindred_admin_sessions").column("flash", type: .text).run()
    }

    /// The operators' audit log: one row per console action, appended and never edited (the
    /// console has no route that updates or deletes a row). The operator's e-mail is copied so
    /// the log still reads after an operator is renamed or removed.
    static let createAudit = Migration("0009c_admin_audit") { sql in
        try await sql.create(table: "kindred_admin_audit")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("operator_id", type: .text, .notNull)
            .column("operator_email", type: .text, .notNull)
            .column("action", type: .text, .notNull)
            .column("target", type: .text, .notNull)
            .column("detail", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_admin_audit_time").on("kindred_admin_audit")
            .column("created_at").column("id").run()
    }

    /// Each operator's time zone (an IANA name, `AdminTimeZone`); NULL is UTC.
    static let addTimeZone = Migration("0009d_admin_operator_time_zone") { sql in
        try await sql.alter(table: "kindred_admin_operators").column("time_zone", type: .text).run()
    }
}
