import KindredStore
import SQLKit

/// The work queue's tables.
enum QueueSchema {
    /// `0004_work_queue`: pending items, idempotency keys, dead letters.
    static let migration = Migration("0004_work_queue") { sql in
        // Work not yet done. `run_at` is when it may next be claimed: a claim moves it to the
        // lease's end, so an item whose worker died becomes claimable again by itself.
        try await sql.create(table: "kindred_queue_items")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("queue", type: .text, .notNull)
            .column("payload", type: .text, .notNull)
            .column("dedupe_key", type: .text)
            .column("attempts", type: .int, .notNull)
            .column("run_at", type: .bigint, .notNull)
            .column("lease_until", type: .bigint)
            .column("claim_token", type: .text)
            .column("last_error", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_queue_items_due").on("kindred_queue_items")
            .column("queue").column("run_at").run()
        // Idempotency keys, kept after the item is done (and pruned after a retention period),
        // so a repeated enqueue with the same key is recognised.
        try await sql.create(table: "kindred_queue_dedupe_keys")
            .column("queue", type: .text, .notNull)
            .column("dedupe_key", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("queue", "dedupe_key")
            .run()
        try await sql.create(index: "kindred_queue_dedupe_keys_created").on("kindred_queue_dedupe_keys")
            .column("created_at").run()
        // Items that failed every attempt, for an operator to inspect and re-drive.
        try await sql.create(table: "kindred_queue_dead_letters")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("queue", type: .text, .notNull)
            .column("payload", type: .text, .notNull)
            .column("dedupe_key", type: .text)
            .column("attempts", type: .int, .notNull)
            .column("last_error", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("failed_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_queue_dead_letters_queue").on("kindred_queue_dead_letters")
            .column("queue").column("failed_at").run()
    }

    /// The queue's migrations, in order.
    static let migrations: [Migration] = [migration]
}
