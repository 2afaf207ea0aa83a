import KindredServerCore
import KindredStore
import SQLKit

/// The tables of Closer's games (issue 24; docs/closer.md, "Games"; docs/wire-formats.md,
/// "Closer games").
///
/// Sessions and slots reference `closer_couples` with `ON DELETE CASCADE`, so leaving a couple or
/// deleting either account removes the couple's games. Slots hold only commitments, `enc:v1:`
/// ciphertexts under the couple key and nonces: the server cannot read an answer.
extension CloserSchema {
    /// Imported game packs, sessions, their slots and the per-partner push throttle.
    static let createGames = Migration("closer_0003_games") { sql in
        // Operator-imported packs (`kindred closer games import`), the pack's JSON.
        try await sql.create(table: "closer_game_pack_imports")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("document", type: .text, .notNull)
            .column("imported_at", type: .bigint, .notNull)
            .run()

        // `kind`: this_or_that | desire_sync | how_well | wheel; `rounds` 1 or 2.
        try await sql.create(table: "closer_game_sessions")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("pack_id", type: .text, .notNull)
            .column("rounds", type: .int, .notNull)
            .column("started_by", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .column("finished_at", type: .bigint)
            .run()
        try await sql.create(index: "closer_game_sessions_couple").on("closer_game_sessions").column("couple_id").column("created_at").run()

        // One slot per session, member and round. A commitment is used once across every slot:
        // the unique index backs the replay refusal.
        try await sql.create(table: "closer_game_slots")
            .column("session_id", type: .text, .notNull, .references("closer_game_sessions", "id", onDelete: .cascade))
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("round", type: .int, .notNull)
            .column("commitment", type: .text, .notNull)
            .column("committed_at", type: .bigint, .notNull)
            .column("ciphertext", type: .text)
            .column("nonce", type: .text)
            .column("opened_at", type: .bigint)
            .primaryKey("session_id", "user_id", "round")
            .run()
        try await sql.create(index: "closer_game_slots_commitment").unique().on("closer_game_slots").column("commitment").run()

        // When each partner was last pushed about a game (the per-couple push limit).
        try await sql.create(table: "closer_game_pushes")
            .column("couple_id", type: .text, .notNull, .references("closer_couples", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("pushed_at", type: .bigint, .notNull)
            .primaryKey("couple_id", "user_id")
            .run()
    }

    /// The games tables in Closer's user-data entry, children first.
    static let gamesUserDataTables: [UserDataTable] = [
        UserDataTable("closer_game_slots"),
        UserDataTable("closer_game_sessions", userColumn: "started_by"),
        UserDataTable("closer_game_pushes"),
    ]
}
