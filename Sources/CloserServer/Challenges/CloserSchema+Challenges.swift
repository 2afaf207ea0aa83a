import KindredServerCore
import KindredStore
import SQLKit

/// The tables of connection challenges (issue 25; docs/closer.md, "Connection challenges").
///
/// Instances, steps, reminder marks and the push throttle reference `closer_couples` with
/// `ON DELETE CASCADE`, so leaving a couple or deleting either account removes them. Step texts
/// are catalog content (not the couple's), copied into the instance when it is joined.
extension CloserSchema {
    /// Imported challenges, instances (one active per couple and challenge), each partner's done
    /// days, the once-per-day reminder marks and the per-partner push throttle.
    static let createChallenges = Migration("closer_0005_challenges") { sql in
        // Operator-imported challenges (`kindred closer challenges import`), the challenge's JSON.
        try await sql.create(table: "closer_challenge_imports")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("document", type: .text, .notNull)
            .column("imported_at", type: .bigint, .notNull)
            .run()

        // Status: active | completed | abandoned. `active_key` is the challenge id while active
        // and NULL after: the unique pair allows one active instance per couple and challenge
        // (NULLs never collide). `start_date` (YYYY-MM-DD) is day 1 in `time_zone`; `remind_at`
        // is the next 19:00 local reminder while days remain (NULL otherwise) and drives the job.
        try await sql.create(table: "closer_challenge_instances")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("challenge_id", type: .text, .notNull)
            .column("active_key", type: .text)
            .column("title", type: .text, .notNull)
            .column("steps", type: .text, .notNull)
            .column("day_count", type: .int, .notNull)
            .column("status", type: .text, .notNull)
            .column("start_date", type: .text, .notNull)
            .column("time_zone", type: .text, .notNull)
            .column("started_by", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("ended_by", type: .text)
            .column("remind_at", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .column("completed_at", type: .bigint)
            .run()
        try await sql.create(index: "closer_challenge_instances_active").unique().on("closer_challenge_instances")
            .column("couple_id").column("active_key").run()
        try await sql.create(index: "closer_challenge_instances_couple").on("closer_challenge_instances")
            .column("couple_id").column("created_at").run()
        try await sql.create(index: "closer_challenge_instances_remind").on("closer_challenge_instances").column("remind_at").run()

        // One row per instance, partner and day done.
        try await sql.create(table: "closer_challenge_steps")
            .column("instance_id", type: .text, .notNull, .references("closer_challenge_instances", "id", onDelete: .cascade))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("day", type: .int, .notNull)
            .column("done_at", type: .bigint, .notNull)
            .primaryKey("instance_id", "user_id", "day")
            .run()

        // A reminder went to this partner for this day of this instance: at most once.
        try await sql.create(table: "closer_challenge_reminders")
            .column("instance_id", type: .text, .notNull, .references("closer_challenge_instances", "id", onDelete: .cascade))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("day", type: .int, .notNull)
            .column("sent_at", type: .bigint, .notNull)
            .primaryKey("instance_id", "user_id", "day")
            .run()

        // When each partner was last pushed about a challenge (the per-couple push limit).
        try await sql.create(table: "closer_challenge_pushes")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("pushed_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "user_id")
            .run()
    }

    /// The challenge tables in Closer's user-data entry, children first.
    static let challengesUserDataTables: [UserDataTable] = [
        UserDataTable("closer_challenge_steps"),
        UserDataTable("closer_challenge_reminders"),
        UserDataTable("closer_challenge_instances", userColumn: "started_by"),
        UserDataTable("closer_challenge_pushes"),
    ]
}
