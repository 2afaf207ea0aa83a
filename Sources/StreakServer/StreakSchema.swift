import KindredServerCore
import KindredStore
import SQLKit

/// StreakSync's tables (docs/streaksync.md, "Tables"). Times are milliseconds since 1970, dates
/// `YYYY-MM-DD` text (which orders as the dates do).
///
/// - Sync: `streaksync_results` and `streaksync_achievements`, keyed by user and the client's id,
///   each change numbered from the user's `streaksync_sync_clocks` row (locked by every write, so
///   a user's changes commit in number order and a pull by number never skips one).
/// - Friends: `streaksync_profiles` (the display name), `streaksync_friend_codes`,
///   `streaksync_friendships` (one row per pair of people, `pair_key` unique, whatever races).
/// - Scores: `streaksync_scores`, one per user, game and date; `streaksync_score_readers`, who
///   may read whose scores (each publisher reads their own, and each accepted friendship adds
///   both directions), maintained in the friendship transactions. A leaderboard is one join from
///   the reader's rows (primary key `reader_id, publisher_id`) to the scores' primary key.
enum StreakSchema {
    static let migrations: [Migration] = [
        Migration("streaksync_0001_tables") { sql in
            let user = SQLColumnConstraintAlgorithm.references("kindred_users", "id", onDelete: .cascade)
            let boolean = SQLDataType.custom(SQLRaw("BOOLEAN"))

            try await sql.create(table: "streaksync_sync_clocks")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("seq", type: .bigint, .notNull)
                .column("results", type: .bigint, .notNull)
                .column("achievements", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "streaksync_results")
                .column("user_id", type: .text, .notNull, user)
                .column("id", type: .text, .notNull)
                .column("game_id", type: .text, .notNull)
                .column("puzzle", type: .bigint, .notNull)
                .column("score", type: .bigint, .notNull)
                .column("max_score", type: .bigint, .notNull)
                .column("completed", type: boolean, .notNull)
                .column("local_date", type: .text, .notNull)
                .column("recorded_at", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .column("fields", type: .text)
                .column("deleted", type: boolean, .notNull)
                .column("change_seq", type: .bigint, .notNull)
                .primaryKey("user_id", "id")
                .run()
            try await sql.create(index: "streaksync_results_changes").on("streaksync_results").unique()
                .column("user_id").column("change_seq").run()
            try await sql.create(table: "streaksync_achievements")
                .column("user_id", type: .text, .notNull, user)
                .column("id", type: .text, .notNull)
                .column("category", type: .text, .notNull)
                .column("tier", type: .bigint, .notNull)
                .column("progress", type: .bigint, .notNull)
                .column("unlocked_at", type: .bigint)
                .column("updated_at", type: .bigint, .notNull)
                .column("change_seq", type: .bigint, .notNull)
                .primaryKey("user_id", "id")
                .run()
            try await sql.create(index: "streaksync_achievements_changes").on("streaksync_achievements").unique()
                .column("user_id").column("change_seq").run()

            try await sql.create(table: "streaksync_profiles")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("display_name", type: .text, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "streaksync_friend_codes")
                .column("user_id", type: .text, .primaryKey(autoIncrement: false), user)
                .column("code", type: .text, .notNull, .unique)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await sql.create(table: "streaksync_friendships")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                // The two ids in order, joined: one row per pair of people, whoever asked.
                .column("pair_key", type: .text, .notNull, .unique)
                .column("sender_id", type: .text, .notNull, user)
                .column("recipient_id", type: .text, .notNull, user)
                .column("status", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("accepted_at", type: .bigint)
                .run()
            try await sql.create(index: "streaksync_friendships_sender").on("streaksync_friendships")
                .column("sender_id").column("status").run()
            try await sql.create(index: "streaksync_friendships_recipient").on("streaksync_friendships")
                .column("recipient_id").column("status").run()

            try await sql.create(table: "streaksync_score_readers")
                .column("reader_id", type: .text, .notNull, user)
                .column("publisher_id", type: .text, .notNull, user)
                .column("since", type: .bigint, .notNull)
                .primaryKey("reader_id", "publisher_id")
                .run()
            // A publish tells every reader; a friend count reads the same rows.
            try await sql.create(index: "streaksync_score_readers_publisher").on("streaksync_score_readers")
                .column("publisher_id").column("reader_id").run()
            try await sql.create(table: "streaksync_scores")
                .column("user_id", type: .text, .notNull, user)
                .column("game_id", type: .text, .notNull)
                .column("local_date", type: .text, .notNull)
                .column("score", type: .bigint, .notNull)
                .column("max_score", type: .bigint, .notNull)
                .column("completed", type: boolean, .notNull)
                .column("current_streak", type: .bigint, .notNull)
                .column("published_at", type: .bigint, .notNull)
                .primaryKey("user_id", "game_id", "local_date")
                .run()
            try await sql.create(index: "streaksync_scores_date").on("streaksync_scores").column("local_date").run()
        },
    ]

    /// Every StreakSync table with a user column, children first. Deleting an account removes its
    /// rows under every user column: its friendships from both sides, and so its place among its
    /// friends' readers and theirs among its own.
    static let userDataEntry = UserDataEntry(
        domain: "streaksync",
        tables: [
            UserDataTable("streaksync_scores"),
            UserDataTable("streaksync_score_readers", userColumn: "publisher_id"),
            UserDataTable("streaksync_score_readers", userColumn: "reader_id"),
            UserDataTable("streaksync_friendships", userColumn: "sender_id"),
            UserDataTable("streaksync_friendships", userColumn: "recipient_id"),
            UserDataTable("streaksync_friend_codes"),
            UserDataTable("streaksync_profiles"),
            UserDataTable("streaksync_achievements"),
            UserDataTable("streaksync_results"),
            UserDataTable("streaksync_sync_clocks"),
        ]
    )
}
