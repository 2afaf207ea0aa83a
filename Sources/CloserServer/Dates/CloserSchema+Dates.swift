import KindredServerCore
import KindredStore
import SQLKit

/// The tables of dates and the bucket list (issue 24; docs/closer.md, "Dates and the bucket list").
///
/// Everything references `closer_couples` with `ON DELETE CASCADE`, so leaving a couple or
/// deleting either account removes the couple's swipes, matches, plans, their history,
/// preferences and bucket list in one statement. Plan titles and notes and bucket titles are
/// stored in plaintext under the couple, as the seed stores them (`date_plans.title`,
/// `bucket_list.title`); they are not end-to-end encrypted.
extension CloserSchema {
    /// Imported date ideas, swipes, matches (one per couple and idea), plans with their
    /// history, per-partner category preferences, and the bucket list.
    static let createDates = Migration("closer_0002_dates") { sql in
        // Operator-imported ideas (`kindred closer dates import`); an imported idea replaces
        // the bundled idea with the same id when servers next start.
        try await sql.create(table: "closer_date_idea_imports")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("title", type: .text, .notNull)
            .column("description", type: .text, .notNull)
            .column("category", type: .text, .notNull)
            .column("cost_level", type: .int, .notNull)
            .column("image_url", type: .text)
            .column("imported_at", type: .bigint, .notNull)
            .run()

        // One swipe per member and idea; a later swipe replaces the earlier one.
        try await sql.create(table: "closer_date_swipes")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("idea_id", type: .text, .notNull)
            .column("action", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "user_id", "idea_id")
            .run()

        // A match exists at most once per couple and idea: the unique pair is what makes the
        // mutual-love insert race-safe (`INSERT … ON CONFLICT DO NOTHING`).
        try await sql.create(table: "closer_date_matches")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("idea_id", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .unique("couple_id", "idea_id")
            .run()
        try await sql.create(index: "closer_date_matches_couple").on("closer_date_matches").column("couple_id").column("created_at").run()

        // Status: draft | planned | completed. `scheduled_date` (YYYY-MM-DD) and
        // `scheduled_time` (HH:MM) are local to `time_zone`, the couple's zone at creation.
        try await sql.create(table: "closer_date_plans")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("match_id", type: .text)
            .column("idea_id", type: .text)
            .column("title", type: .text, .notNull)
            .column("notes", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("scheduled_date", type: .text)
            .column("scheduled_time", type: .text)
            .column("time_zone", type: .text, .notNull)
            .column("created_by", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("updated_by", type: .text, .notNull)
            .column("revision", type: .int, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .column("completed_at", type: .bigint)
            .run()
        try await sql.create(index: "closer_date_plans_couple").on("closer_date_plans").column("couple_id").column("updated_at").run()

        // The history: one row per revision of a plan, a snapshot after the change.
        try await sql.create(table: "closer_date_plan_events")
            .column("plan_id", type: .text, .notNull, .references("closer_date_plans", "id", onDelete: .cascade))
            .column("revision", type: .int, .notNull)
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("title", type: .text, .notNull)
            .column("scheduled_date", type: .text)
            .column("scheduled_time", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("plan_id", "revision")
            .run()

        // Per-partner weights by category (-3…3) that order that partner's deck.
        try await sql.create(table: "closer_date_plan_preferences")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("category", type: .text, .notNull)
            .column("weight", type: .int, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "user_id", "category")
            .run()

        try await sql.create(table: "closer_bucket_items")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("title", type: .text, .notNull)
            .column("category", type: .text)
            .column("added_by", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("created_at", type: .bigint, .notNull)
            .column("completed_at", type: .bigint)
            .column("completed_by", type: .text)
            .run()
        try await sql.create(index: "closer_bucket_items_couple").on("closer_bucket_items").column("couple_id").column("created_at").run()
    }

    /// The dates and bucket-list tables in Closer's user-data entry, children first.
    static let datesUserDataTables: [UserDataTable] = [
        UserDataTable("closer_date_plan_events"),
        UserDataTable("closer_date_plans", userColumn: "created_by"),
        UserDataTable("closer_date_swipes"),
        UserDataTable("closer_date_plan_preferences"),
        UserDataTable("closer_bucket_items", userColumn: "added_by"),
    ]
}
