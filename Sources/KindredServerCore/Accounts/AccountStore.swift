import Foundation
import KindredStore
import SQLKit

/// The queries of the accounts domain over `kindred_users` and `kindred_credentials`.
struct AccountStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// The account with `id`, or nil.
    func user(id: String, on sql: (any SQLDatabase)? = nil) async throws -> UserRecord? {
        try await (sql ?? database.sql).select().columns(UserRecord.Columns.all).from("kindred_users")
            .where("id", .equal, id).first()
            .map { try $0.decode(model: UserRecord.self, keyDecodingStrategy: .convertFromSnakeCase) }
    }

    /// The credentials of an account, oldest first.
    func credentials(userID: String, on sql: (any SQLDatabase)? = nil) async throws -> [CredentialRecord] {
        try await (sql ?? database.sql).select().column("*").from("kindred_credentials")
            .where("user_id", .equal, userID).orderBy("created_at").all()
            .map { try $0.decode(model: CredentialRecord.self, keyDecodingStrategy: .convertFromSnakeCase) }
    }

    /// The credential of `provider` with `subject` in `app`, or nil.
    func credential(
        app: AppID, provider: AppConfiguration.AuthProvider, subject: String, on sql: (any SQLDatabase)? = nil
    ) async throws -> CredentialRecord? {
        try await (sql ?? database.sql).select().column("*").from("kindred_credentials")
            .where("app", .equal, app.rawValue).where("provider", .equal, provider.rawValue)
            .where("subject", .equal, subject).first()
            .map { try $0.decode(model: CredentialRecord.self, keyDecodingStrategy: .convertFromSnakeCase) }
    }

    /// Inserts a new account.
    ///
    /// Written out rather than built (or encoded from the model, which converts every key's
    /// case): it runs on the writer every sign-up waits for.
    func insert(_ user: UserRecord, on sql: any SQLDatabase) async throws {
        let values: [any Encodable & Sendable] = [
            user.id, user.app, user.isAnonymous, user.displayName, user.firstName, user.lastName, user.photoUrl,
            user.timeZone, user.locale, user.disabledAt, user.createdAt, user.updatedAt,
        ]
        try await sql.run(Self.insertUser.binding(values))
    }

    private static let insertUser = StatementText(
        "INSERT INTO kindred_users (\(UserRecord.Columns.all.joined(separator: ", ")))"
            + " VALUES (\(Array(repeating: "?", count: UserRecord.Columns.all.count).joined(separator: ", ")))"
    )

    /// Inserts a credential; answers false (and changes nothing) when its subject or its kind
    /// for this account is already taken, which concurrent sign-ups can race for.
    func insert(_ credential: CredentialRecord, on sql: any SQLDatabase) async throws -> Bool {
        let inserted = try await sql.insert(into: "kindred_credentials")
            .model(credential, keyEncodingStrategy: .convertToSnakeCase)
            .ignoringConflicts()
            .returning("id")
            .all()
        return !inserted.isEmpty
    }

    /// Makes the account permanent (it has a credential now).
    func markPermanent(userID: String, on sql: any SQLDatabase) async throws {
        try await sql.update("kindred_users").set("is_anonymous", to: false)
            .set("updated_at", to: clock.now().millisecondsSince1970)
            .where("id", .equal, userID).run()
    }

    /// Writes the profile fields of `user`.
    func updateProfile(_ user: UserRecord, on sql: (any SQLDatabase)? = nil) async throws {
        try await (sql ?? database.sql).update("kindred_users")
            .set("display_name", to: user.displayName).set("first_name", to: user.firstName)
            .set("last_name", to: user.lastName).set("photo_url", to: user.photoUrl)
            .set("time_zone", to: user.timeZone).set("locale", to: user.locale)
            .set("updated_at", to: user.updatedAt)
            .where("id", .equal, user.id).run()
    }

    /// Accounts of `app` (all apps when nil), newest first, after the cursor `before` (created_at, id).
    func list(app: AppID?, limit: Int, before: (createdAt: Int64, id: String)?) async throws -> [UserRecord] {
        var query = database.sql.select().columns(UserRecord.Columns.all).from("kindred_users")
        if let app { query = query.where("app", .equal, app.rawValue) }
        if let before {
            query = query.where { group in
                group.where("created_at", .lessThan, before.createdAt)
                    .orWhere { $0.where("created_at", .equal, before.createdAt).where("id", .lessThan, before.id) }
            }
        }
        return try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).all()
            .map { try $0.decode(model: UserRecord.self, keyDecodingStrategy: .convertFromSnakeCase) }
    }

    /// Disables (or re-enables) an account; disabling also revokes all its sessions.
    /// - Returns: false when there is no such account.
    func setDisabled(userID: String, _ disabled: Bool) async throws -> Bool {
        let now = clock.now().millisecondsSince1970
        return try await database.transaction { sql in
            let found = try await sql.update("kindred_users")
                .set("disabled_at", to: disabled ? now : nil).set("updated_at", to: now)
                .where("id", .equal, userID).returning("id").all()
            guard !found.isEmpty else { return false }
            if disabled {
                try await sql.update("kindred_sessions").set("revoked_at", to: now)
                    .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null).run()
                // Another process (the server) closes the account's WebSockets on PostgreSQL at
                // once; on SQLite at their next heartbeat.
                try await RealtimeSessions.announce(.user(userID), on: sql)
            }
            return true
        }
    }
}
