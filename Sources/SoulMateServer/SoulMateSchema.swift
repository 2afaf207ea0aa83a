import KindredServerCore
import KindredStore
import SQLKit

/// SoulMate's tables (docs/soulmate.md, "Tables"). Times are milliseconds since 1970.
///
/// A pair is a `soulmate_pairs` row and one `soulmate_pair_members` row per partner: the
/// members' primary key is the user, so a user is in at most one pair whatever races. Envelopes
/// live only until their recipient acknowledges them (or 7 days).
enum SoulMateSchema {
    static let migrations: [Migration] = [
        Migration("soulmate_0001_tables") { sql in
            let user = SQLColumnConstraintAlgorithm.references("kindred_users", "id", onDelete: .cascade)
            try await sql.create(table: "soulmate_pair_codes")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("code", type: .text, .notNull, .unique)
                .column("rotated_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "soulmate_pair_requests")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("from_user_id", type: .text, .notNull, user)
                .column("to_user_id", type: .text, .notNull, user)
                .column("status", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("responded_at", type: .bigint)
                .run()
            try await sql.create(index: "soulmate_pair_requests_to").on("soulmate_pair_requests")
                .column("to_user_id").column("status").run()
            try await sql.create(index: "soulmate_pair_requests_from").on("soulmate_pair_requests")
                .column("from_user_id").column("status").run()
            // At most one pending request per direction between two people, whatever races.
            try await sql.raw("""
                CREATE UNIQUE INDEX soulmate_pair_requests_pending ON soulmate_pair_requests (from_user_id, to_user_id)
                WHERE status = 'pending'
                """).run()
            try await sql.create(table: "soulmate_pairs")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("user_a_id", type: .text, .notNull, user)
                .column("user_b_id", type: .text, .notNull, user)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "soulmate_pairs_a").on("soulmate_pairs").column("user_a_id").run()
            try await sql.create(index: "soulmate_pairs_b").on("soulmate_pairs").column("user_b_id").run()
            try await sql.create(table: "soulmate_pair_members")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("pair_id", type: .text, .notNull, .references("soulmate_pairs", "id", onDelete: .cascade))
                .column("partner_id", type: .text, .notNull, user)
                .column("joined_at", type: .bigint, .notNull)
                .run()
            try await sql.create(index: "soulmate_pair_members_pair").on("soulmate_pair_members").column("pair_id").run()
            try await sql.create(table: "soulmate_unpair_requests")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("pair_id", type: .text, .notNull, .references("soulmate_pairs", "id", onDelete: .cascade))
                .column("requester_id", type: .text, .notNull, user)
                .column("status", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("responded_at", type: .bigint)
                .run()
            try await sql.create(index: "soulmate_unpair_requests_pair").on("soulmate_unpair_requests")
                .column("pair_id").column("status").run()
            try await sql.create(table: "soulmate_session_locks")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("installation_id", type: .text, .notNull)
                .column("platform", type: .text, .notNull)
                .column("device_name", type: .text, .notNull)
                .column("app_version", type: .text, .notNull)
                .column("acquired_at", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "soulmate_identity_keys")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("public_key", type: .text, .notNull)
                .column("key_version", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "soulmate_locations")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("ciphertext", type: .text, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "soulmate_envelopes")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("sender_id", type: .text, .notNull, user)
                .column("recipient_id", type: .text, .notNull, user)
                .column("sent_at", type: .bigint, .notNull)
                .column("key_version", type: .bigint, .notNull)
                .column("ciphertext", type: .text, .notNull)
                .column("received_at", type: .bigint, .notNull)
                // The push that carried a copy of the envelope, redacted when the envelope goes.
                .column("notification_id", type: .text)
                .run()
            try await sql.create(index: "soulmate_envelopes_inbox").on("soulmate_envelopes")
                .column("recipient_id").column("received_at").column("id").run()
            try await sql.create(index: "soulmate_envelopes_sender").on("soulmate_envelopes").column("sender_id").run()
            try await sql.create(index: "soulmate_envelopes_age").on("soulmate_envelopes").column("received_at").run()
        },
        userIndexes,
    ]

    /// Every SoulMate table with a user column, children first. Envelopes are exported without
    /// their ciphertext (the metadata of what waits for delivery), locations without theirs.
    static let userDataEntry = UserDataEntry(
        domain: "soulmate",
        tables: [
            UserDataTable("soulmate_envelopes", userColumn: "sender_id", omitting: ["ciphertext", "notification_id"]),
            UserDataTable("soulmate_envelopes", userColumn: "recipient_id", omitting: ["ciphertext", "notification_id"]),
            UserDataTable("soulmate_locations", omitting: ["ciphertext"]),
            UserDataTable("soulmate_identity_keys"),
            UserDataTable("soulmate_session_locks"),
            UserDataTable("soulmate_unpair_requests", userColumn: "requester_id"),
            UserDataTable("soulmate_pair_members"),
            UserDataTable("soulmate_pair_members", userColumn: "partner_id"),
            UserDataTable("soulmate_pairs", userColumn: "user_a_id"),
            UserDataTable("soulmate_pairs", userColumn: "user_b_id"),
            UserDataTable("soulmate_pair_requests", userColumn: "from_user_id"),
            UserDataTable("soulmate_pair_requests", userColumn: "to_user_id"),
            UserDataTable("soulmate_pair_codes"),
        ],
        beforeDelete: { userID, sql in
            // The pair ends with the account: the partner's sealed location goes with it, and the
            // pushes that carried copies of envelopes to or from this user are emptied.
            if let member = try await SoulMateController.membership(of: userID, on: sql) {
                try await sql.delete(from: "soulmate_locations").where("user_id", .equal, member.partnerID).run()
            }
            let pushes = try await sql.select().column("notification_id").from("soulmate_envelopes")
                .where { $0.where("sender_id", .equal, userID).orWhere("recipient_id", .equal, userID) }
                .where("notification_id", .isNot, SQLLiteral.null).all()
                .map { try $0.decode(column: "notification_id", as: String.self) }
            try await NotificationOutbox.redactData(of: pushes, on: sql)
        }
    )
}
