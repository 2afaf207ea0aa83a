import KindredStore
import SQLKit

/// The tables of device integrity (docs/device-integrity.md, "Server"). Append only: a change is a
/// new migration at the end.
enum IntegritySchema {
    /// The integrity migrations, in order.
    static let migrations: [Migration] = [createIntegrity, indexChallengeExpiry]

    /// Server challenges, attested App Attest keys and recorded verdicts.
    static let createIntegrity = Migration("integrity_0001_device_integrity") { sql in
        // A challenge is kept as the SHA-256 of its text; `used_at` marks the one use it gets.
        try await sql.create(table: "kindred_integrity_challenges")
            .column("challenge_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("used_at", type: .bigint)
            .run()
        try await sql.create(index: "kindred_integrity_challenges_user").on("kindred_integrity_challenges")
            .column("user_id").column("expires_at").run()

        // An attested App Attest key: one user's, for one app; `counter` is the last accepted one.
        try await sql.create(table: "kindred_integrity_keys")
            .column("key_id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("environment", type: .text, .notNull)
            .column("public_key", type: .text, .notNull)
            .column("counter", type: .bigint, .notNull)
            .column("receipt", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_integrity_keys_user").on("kindred_integrity_keys").column("user_id").run()

        // Every verification's outcome for (user, device, app): the newest one is the device's verdict.
        try await sql.create(table: "kindred_integrity_verdicts")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("device", type: .text, .notNull)
            .column("platform", type: .text, .notNull)
            .column("verdict", type: .text, .notNull)
            .column("reason", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_integrity_verdicts_device").on("kindred_integrity_verdicts")
            .column("user_id").column("app").column("device").column("created_at").run()
        try await sql.create(index: "kindred_integrity_verdicts_created").on("kindred_integrity_verdicts")
            .column("created_at").run()
    }

    /// The user's integrity rows, for account deletion and export (the receipt is Apple's blob,
    /// left out of exports).
    static let userDataEntry = UserDataEntry(
        domain: "integrity",
        tables: [
            UserDataTable("kindred_integrity_verdicts"),
            UserDataTable("kindred_integrity_keys", omitting: ["receipt"]),
            UserDataTable("kindred_integrity_challenges", omitting: ["challenge_hash"]),
        ]
    )
}
