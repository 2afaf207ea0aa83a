import KindredStore
import SQLKit

extension CloserSchema {
    /// The console's user page counts a user's rows in every table the user-data registry lists
    /// (`AdminAccounts.dataSummary`), and account deletion deletes them by the same column: these
    /// indexes make each a range read instead of a scan of the table.
    static let createUserIndexes = Migration("closer_0007_user_indexes") { sql in
        try await sql.create(index: "closer_release_keys_user").on("closer_release_keys").column("user_id").run()
        try await sql.create(index: "closer_thread_messages_user").on("closer_thread_messages").column("user_id").run()
        try await sql.create(index: "closer_answers_user").on("closer_answers").column("user_id").run()
        try await sql.create(index: "closer_gentle_reminders_user").on("closer_gentle_reminders").column("user_id").run()
        try await sql.create(index: "closer_challenge_steps_user").on("closer_challenge_steps").column("user_id").run()
        try await sql.create(index: "closer_challenge_reminders_user").on("closer_challenge_reminders").column("user_id").run()
        try await sql.create(index: "closer_challenge_instances_started_by").on("closer_challenge_instances").column("started_by").run()
        try await sql.create(index: "closer_challenge_pushes_user").on("closer_challenge_pushes").column("user_id").run()
        try await sql.create(index: "closer_date_plan_events_user").on("closer_date_plan_events").column("user_id").run()
        try await sql.create(index: "closer_date_plans_created_by").on("closer_date_plans").column("created_by").run()
        try await sql.create(index: "closer_date_swipes_user").on("closer_date_swipes").column("user_id").run()
        try await sql.create(index: "closer_date_plan_preferences_user").on("closer_date_plan_preferences").column("user_id").run()
        try await sql.create(index: "closer_bucket_items_added_by").on("closer_bucket_items").column("added_by").run()
        try await sql.create(index: "closer_game_slots_user").on("closer_game_slots").column("user_id").run()
        try await sql.create(index: "closer_game_sessions_started_by").on("closer_game_sessions").column("started_by").run()
        try await sql.create(index: "closer_game_pushes_user").on("closer_game_pushes").column("user_id").run()
        try await sql.create(index: "closer_outcomes_user").on("closer_outcomes").column("user_id").run()
        try await sql.create(index: "closer_outcome_reminders_user").on("closer_outcome_reminders").column("user_id").run()
        try await sql.create(index: "closer_capsules_created_by").on("closer_capsules").column("created_by").run()
    }
}
