import KindredServerCore
import KindredStore
import SQLKit

/// The tables of Closer. Append only: a change is a new `0007…_closer` migration at the end.
///
/// Everything a couple owns references `closer_couples` with `ON DELETE CASCADE`, and a couple
/// references both of its members the same way: deleting either account (or the couple, when
/// someone leaves) deletes all the couple's content in one statement.
enum CloserSchema {
    /// The Closer migrations, in order.
    static let migrations: [Migration] = [createCloser, createDates, createGames, createOutcomesCapsules, createChallenges, createActivityIndexes, createUserIndexes]

    /// Catalog imports, invites and attempts, couples and members, device keys, daily questions,
    /// answers, release keys, threads and their messages, reminder locks.
    static let createCloser = Migration("0007_closer") { sql in
        try await createCatalog(sql)
        try await createInvites(sql)
        try await createCouples(sql)
        try await createDays(sql)
        try await createThreads(sql)
    }

    private static func createCatalog(_ sql: any SQLDatabase) async throws {
        // Operator-imported packs (`kindred closer questions import`); the bundled catalog is a
        // resource. An imported pack replaces the bundled pack of the same id.
        try await sql.create(table: "closer_catalog_packs")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("document", type: .text, .notNull)
            .column("imported_at", type: .bigint, .notNull)
            .run()
    }

    private static func createInvites(_ sql: any SQLDatabase) async throws {
        // `user_id` is the inviter. Status: pending (code reserved) | open | accepted.
        try await sql.create(table: "closer_invites")
            .column("code", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("status", type: .text, .notNull)
            .column("encryption_version", type: .int)
            .column("wrapped_couple_key", type: .text)
            .column("kdf_salt", type: .text)
            .column("kdf_params", type: .text)
            .column("encrypted_phrase", type: .text)
            .column("verifier", type: .text)
            .column("invite_kdf_salt", type: .text)
            .column("invite_kdf_params", type: .text)
            .column("couple_id", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("accepted_at", type: .bigint)
            .run()
        try await sql.create(index: "closer_invites_user").on("closer_invites").column("user_id").run()
        try await sql.create(index: "closer_invites_expires").on("closer_invites").column("expires_at").run()

        // One row per accept attempt (and parameter look-up), kept 25 hours.
        try await sql.create(table: "closer_invite_attempts")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("code", type: .text, .notNull)
            .column("attempted_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "closer_invite_attempts_user").on("closer_invite_attempts")
            .column("user_id").column("kind").column("attempted_at").run()
        try await sql.create(index: "closer_invite_attempts_expires").on("closer_invite_attempts").column("expires_at").run()
    }

    private static func createCouples(_ sql: any SQLDatabase) async throws {
        // `user_a_id` invited, `user_b_id` accepted. `next_assignment_at` drives the daily job;
        // `pack_cursor` is the position in the couple's shuffled order of its active pack.
        try await sql.create(table: "closer_couples")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_a_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("user_b_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("invite_code", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .column("streak_count", type: .int, .notNull)
            .column("last_answered_at", type: .bigint)
            .column("last_answered_date", type: .text)
            .column("current_question_id", type: .text)
            .column("current_day", type: .text)
            .column("active_pack_id", type: .text)
            .column("pack_cursor", type: .int, .notNull)
            .column("time_zone", type: .text, .notNull)
            .column("assignment_minute", type: .int, .notNull)
            .column("next_assignment_at", type: .bigint, .notNull)
            .column("encryption_version", type: .int, .notNull)
            .column("migration_users", type: .text, .notNull)
            .column("wrapped_couple_key", type: .text)
            .column("kdf_salt", type: .text)
            .column("kdf_params", type: .text)
            .run()
        try await sql.create(index: "closer_couples_next_assignment").on("closer_couples").column("next_assignment_at").run()
        try await sql.create(index: "closer_couples_user_a").on("closer_couples").column("user_a_id").run()
        try await sql.create(index: "closer_couples_user_b").on("closer_couples").column("user_b_id").run()

        // A user is in at most one couple (the primary key).
        try await sql.create(table: "closer_members")
            .column("user_id", type: .text, .primaryKey(autoIncrement: false), .references("kindred_users", "id", onDelete: .cascade))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("partner_id", type: .text, .notNull)
            .column("joined_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "closer_members_couple").on("closer_members").column("couple_id").run()

        // Saved positions of packs that are not active (restored when a pack is chosen again).
        try await sql.create(table: "closer_pack_progress")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("pack_id", type: .text, .notNull)
            .column("pack_cursor", type: .int, .notNull)
            .primaryKey("couple_id", "pack_id")
            .run()

        try await sql.create(table: "closer_device_keys")
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("device_id", type: .text, .notNull)
            .column("public_key", type: .text, .notNull)
            .column("platform", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("user_id", "device_id")
            .run()

        // Gentle-reminder lock: one per couple per UTC day; `user_id` sent it.
        try await sql.create(table: "closer_gentle_reminders")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("day", type: .text, .notNull)
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("sent_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "day")
            .run()
    }

    private static func createDays(_ sql: any SQLDatabase) async throws {
        // One assignment per couple and date key. `remind_at` is cleared once the reminder ran.
        try await sql.create(table: "closer_days")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("date_key", type: .text, .notNull)
            .column("question_id", type: .text, .notNull)
            .column("assigned_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("remind_at", type: .bigint)
            .column("completed_at", type: .bigint)
            .primaryKey("couple_id", "date_key")
            .run()
        try await sql.create(index: "closer_days_remind").on("closer_days").column("remind_at").run()

        try await sql.create(table: "closer_answers")
            .column("couple_id", type: .text, .notNull)
            .column("date_key", type: .text, .notNull)
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("question_id", type: .text, .notNull)
            .column("schema_version", type: .int, .notNull)
            .column("text", type: .text)
            .column("encrypted_text", type: .text)
            .column("encrypted_payload", type: .text)
            .column("commitment_hash", type: .text)
            .column("commitment_seal", type: .text)
            .column("answer_key_released", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("is_revealed", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("migrated_at", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "date_key", "user_id")
            .foreignKey(["couple_id", "date_key"], references: "closer_days", ["couple_id", "date_key"], onDelete: .cascade)
            .run()

        // One keybox per answer (or thread message) and recipient device. `scope` is `day:<date>`
        // or `thread:<id>`; `user_id` is the sender.
        try await sql.create(table: "closer_release_keys")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("scope", type: .text, .notNull)
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("recipient_id", type: .text, .notNull)
            .column("recipient_device_id", type: .text, .notNull)
            .column("encrypted_answer_key", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "scope", "user_id", "recipient_device_id")
            .run()
        try await sql.create(index: "closer_release_keys_recipient").on("closer_release_keys")
            .column("couple_id").column("scope").column("recipient_id").column("recipient_device_id").run()
    }

    private static func createThreads(_ sql: any SQLDatabase) async throws {
        try await sql.create(table: "closer_threads")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("question_id", type: .text, .notNull)
            .column("created_by", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "closer_threads_couple").on("closer_threads").column("couple_id").column("created_at").run()

        try await sql.create(table: "closer_thread_messages")
            .column("thread_id", type: .text, .notNull, .references("closer_threads", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("schema_version", type: .int, .notNull)
            .column("encrypted_payload", type: .text, .notNull)
            .column("commitment_hash", type: .text, .notNull)
            .column("commitment_seal", type: .text, .notNull)
            .column("answer_key_released", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("thread_id", "user_id")
            .run()
    }

    /// Closer's entry in the deletion/export registry. Deleting a member's couple row (by
    /// either column) cascades to everything the couple owns, the partner's answers included.
    static let userDataEntry = UserDataEntry(
        domain: "closer",
        tables: challengesUserDataTables + outcomesCapsulesUserDataTables + gamesUserDataTables + datesUserDataTables + [
            UserDataTable("closer_release_keys"),
            UserDataTable("closer_thread_messages"),
            UserDataTable("closer_answers"),
            UserDataTable("closer_gentle_reminders"),
            UserDataTable("closer_members"),
            UserDataTable("closer_couples", userColumn: "user_a_id"),
            UserDataTable("closer_couples", userColumn: "user_b_id"),
            UserDataTable("closer_device_keys"),
            UserDataTable("closer_invites", omitting: ["verifier", "encrypted_phrase"]),
            UserDataTable("closer_invite_attempts"),
        ]
    )
}
