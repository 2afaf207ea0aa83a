import KindredServerCore
import KindredStore
import SQLKit

/// The tables of Closer over time (issue 25; docs/closer.md, "Check-ins" and "Memory lane"):
/// 30/60/90-day check-ins and time capsules.
///
/// Everything references `closer_couples` with `ON DELETE CASCADE`, so leaving a couple or
/// deleting either account removes the couple's check-ins and capsules. Answers, capsule titles
/// and contents are `enc:v1:` ciphertexts under the couple key: the server cannot read them.
extension CloserSchema {
    /// Check-ins, their reminder schedule and locks, and capsules.
    static let createOutcomesCapsules = Migration("closer_0004_outcomes_capsules") { sql in
        // One answer per couple, member and key (the seed's `users/{uid}/outcomes/{dayKey}`);
        // the primary key backs the once-per-key rule.
        try await sql.create(table: "closer_outcomes")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("day_key", type: .text, .notNull)
            .column("answers", type: .text, .notNull)
            .column("submitted_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "user_id", "day_key")
            .run()

        // The next check-in reminder of each couple still inside its 90 days: the job reads only
        // rows whose `next_due_at` has passed, through the index, a bounded page at a time.
        try await sql.create(table: "closer_outcome_schedule")
            .column("couple_id", type: .text, .primaryKey(autoIncrement: false), .references("closer_couples", "id", onDelete: .cascade))
            .column("next_key", type: .text, .notNull)
            .column("next_due_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "closer_outcome_schedule_due").on("closer_outcome_schedule").column("next_due_at").run()

        // One row per reminder sent (couple, key, member): a second run sends nothing.
        try await sql.create(table: "closer_outcome_reminders")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("day_key", type: .text, .notNull)
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("sent_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "day_key", "user_id")
            .run()

        // The enrolment cursor: the last couple (by creation) given a schedule row. New couples
        // are found through the index on `closer_couples.created_at`, never by a full scan.
        try await sql.create(table: "closer_outcome_enrolment")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("created_at", type: .bigint, .notNull)
            .column("couple_id", type: .text, .notNull)
            .run()
        try await sql.insert(into: "closer_outcome_enrolment").columns("id", "created_at", "couple_id")
            .values(SQLBind("outcomes"), SQLBind(Int64(-1)), SQLBind("")).run()
        try await sql.create(index: "closer_couples_created").on("closer_couples").column("created_at").column("id").run()

        // Time capsules. `pending_unlock_at` equals `unlock_at` until the unlock job announced
        // the capsule (then null): the job reads due rows through its index.
        try await sql.create(table: "closer_capsules")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("created_by", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("title", type: .text, .notNull)
            .column("content", type: .text, .notNull)
            .column("unlock_at", type: .bigint, .notNull)
            .column("pending_unlock_at", type: .bigint)
            .column("unlocked_at", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "closer_capsules_couple").on("closer_capsules").column("couple_id").column("unlock_at").run()
        try await sql.create(index: "closer_capsules_pending").on("closer_capsules").column("pending_unlock_at").run()
    }

    /// The check-in and capsule tables in Closer's user-data entry, children first.
    static let outcomesCapsulesUserDataTables: [UserDataTable] = [
        UserDataTable("closer_outcomes"),
        UserDataTable("closer_outcome_reminders"),
        UserDataTable("closer_capsules", userColumn: "created_by"),
    ]
}
