import KindredStore
import SQLKit

/// The tables of the accounts domain. Append only: a change is a new migration at the end.
enum AccountsSchema {
    /// The accounts migrations, in order.
    static let migrations: [Migration] = [createAccounts, refreshSuccessors, identityTokenUses, signingKeyStates, consoleIndexes, userIndexes]

    /// Users, credentials, sessions, refresh tokens and the access-token signing keys.
    static let createAccounts = Migration("0002_accounts") { sql in
        try await sql.create(table: "kindred_users")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("app", type: .text, .notNull)
            .column("is_anonymous", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("display_name", type: .text)
            .column("first_name", type: .text)
            .column("last_name", type: .text)
            .column("photo_url", type: .text)
            .column("time_zone", type: .text)
            .column("locale", type: .text)
            .column("disabled_at", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_users_app_created").on("kindred_users")
            .column("app").column("created_at").run()

        // One row per sign-in method: `password` (subject = the normalised e-mail), `apple`,
        // `google` (subject = the provider's `sub`). A subject belongs to one account per app.
        try await sql.create(table: "kindred_credentials")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("provider", type: .text, .notNull)
            .column("subject", type: .text, .notNull)
            .column("email", type: .text)
            .column("password_hash", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .unique("app", "provider", "subject")
            .unique("user_id", "provider")
            .run()

        // A session is one sign-in on one device: the family of its refresh tokens.
        try await sql.create(table: "kindred_sessions")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("refreshed_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("revoked_at", type: .bigint)
            .run()
        try await sql.create(index: "kindred_sessions_user").on("kindred_sessions").column("user_id").run()

        // Refresh tokens are stored as SHA-256 hashes; `used_at` marks a rotated one.
        try await sql.create(table: "kindred_refresh_tokens")
            .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("session_id", type: .text, .notNull, .references("kindred_sessions", "id", onDelete: .cascade))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("issued_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("used_at", type: .bigint)
            .run()
        try await sql.create(index: "kindred_refresh_tokens_session").on("kindred_refresh_tokens")
            .column("session_id").run()
        try await sql.create(index: "kindred_refresh_tokens_expiry").on("kindred_refresh_tokens")
            .column("expires_at").run()

        // The HMAC keys of access tokens: made once, shared by every replica through the database.
        try await sql.create(table: "kindred_signing_keys")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("algorithm", type: .text, .notNull)
            .column("secret", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
    }

    /// The successor pair a used refresh token was rotated to, sealed under a key derived from
    /// the token (`TokenService+Successor.swift`): a retry within the grace window gets it again.
    static let refreshSuccessors = Migration("accounts_0002_refresh_successors") { sql in
        try await sql.alter(table: "kindred_refresh_tokens").column("successor", type: .text).run()
    }

    /// The SHA-256 of every Apple and Google identity token used to sign in, kept until the token
    /// expires, so each is good for one sign-in (`IdentityTokenUse`); purged by
    /// `accounts.purge-expired-tokens`.
    static let identityTokenUses = Migration("accounts_0003_identity_token_uses") { sql in
        try await sql.create(table: "kindred_identity_token_uses")
            .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_identity_token_uses_expires").on("kindred_identity_token_uses").column("expires_at").run()
    }
}
