import Foundation
import KindredAPI
import KindredStore
import OpenAPIRuntime
import SQLKit

extension AccountsController {
    // MARK: - The signed-in account

    /// Authenticates the request's bearer token for its app.
    package func authenticate(_ scope: RequestScope, app: AppConfiguration) async throws -> AuthenticatedUser {
        try await tokens.authenticate(authorization: scope.authorization, app: app.id)
    }

    /// The API form of the account of the request's bearer token, read with its session.
    /// `hasPremium` comes from billing's stored record in the same query: access lasts while
    /// its latest expiration is in the future.
    package func me(_ scope: RequestScope, app: AppConfiguration) async throws -> Components.Schemas.User {
        let (user, credentials, accessUntil) = try await tokens.authenticateWithCredentials(
            authorization: scope.authorization, app: app.id
        )
        var me = representation(of: user.user, credentials: credentials)
        me.hasPremium = accessUntil.map { $0 > Int64(clock.now().timeIntervalSince1970.rounded(.down)) } ?? false
        return me
    }

    /// Refuses anonymous accounts: for irreversible actions (pairing, purchases, leaving a couple).
    /// - Throws: 403 `upgrade_required`.
    package static func requirePermanent(_ user: AuthenticatedUser) throws {
        guard !user.user.isAnonymous else { throw KindredError.upgradeRequired }
    }

    /// Applies a profile update; an empty string clears a field.
    package func update(_ user: AuthenticatedUser, with change: Components.Schemas.ProfileUpdate) async throws -> Components.Schemas.User {
        var record = user.user
        if let value = change.displayName { record.displayName = try AccountInput.name(value, field: "displayName") }
        if let value = change.firstName { record.firstName = try AccountInput.name(value, field: "firstName") }
        if let value = change.lastName { record.lastName = try AccountInput.name(value, field: "lastName") }
        if let value = change.photoURL { record.photoUrl = try AccountInput.photoURL(value) }
        if let value = change.timeZone { record.timeZone = try AccountInput.timeZone(value) }
        if let value = change.locale { record.locale = try AccountInput.locale(value) }
        record.updatedAt = clock.now().millisecondsSince1970
        let updated = try await representation(of: record)
        let store = store
        let realtime = realtime
        let changed = record
        // The change and its `profile.updated` event commit together; the user's other devices
        // subscribed to `user:<id>` get the new profile.
        try await realtime.transaction { transaction in
            try await store.updateProfile(changed, on: transaction.sql)
            try await realtime.publish(
                channel: .user(changed.id), type: "profile.updated", data: updated, on: transaction
            )
        }
        return updated
    }

    /// Deletes everything the account owns (every registered domain), then the account.
    package func delete(_ user: AuthenticatedUser) async throws {
        let registry = userData
        let userID = user.user.id
        try await database.transaction { sql in
            try await registry.delete(userID: userID, on: sql)
            try await RealtimeSessions.announce(.user(userID), on: sql)
        }
        tokens.sessions.end(.user(userID))
    }

    /// Everything the server holds about the account, secrets left out.
    package func export(_ user: AuthenticatedUser) async throws -> Components.Schemas.AccountExport {
        let registry = userData
        let domains = try await registry.export(userID: user.user.id, on: database.sql)
        var data = Components.Schemas.AccountExport.DataPayload()
        for (domain, tables) in domains {
            var exported = Components.Schemas.ExportedTables()
            for (table, rows) in tables {
                exported.additionalProperties[table] = try rows.map {
                    Components.Schemas.ExportedRow(additionalProperties: try OpenAPIObjectContainer(unvalidatedValue: $0))
                }
            }
            data.additionalProperties[domain] = exported
        }
        return .init(exportedAt: clock.now(), user: try await representation(of: user.user), data: data)
    }

    // MARK: - Linking

    /// Adds e-mail and password to the account (an anonymous account becomes permanent).
    package func linkPassword(_ user: AuthenticatedUser, email rawEmail: String, password: String, app: AppConfiguration) async throws -> Components.Schemas.User {
        try requirePasswords(app)
        let email = try AccountInput.email(rawEmail)
        try AccountInput.newPassword(password)
        let existing = try await store.credentials(userID: user.user.id)
        guard !existing.contains(where: { $0.provider == "password" }) else { throw KindredError.alreadyLinked("password") }
        if try await store.credential(app: app.id, provider: .password, subject: email) != nil {
            throw KindredError.credentialInUse
        }
        let credential = CredentialRecord(
            id: RandomID.make(), userId: user.user.id, app: app.id.rawValue, provider: "password",
            subject: email, email: email, passwordHash: try await hasher.hash(password),
            createdAt: clock.now().millisecondsSince1970
        )
        return try await link(credential, to: user)
    }

    /// Adds Apple or Google sign-in to the account.
    package func linkIdentity(
        _ user: AuthenticatedUser, provider: AppConfiguration.AuthProvider, idToken: String, nonce: String? = nil, app: AppConfiguration
    ) async throws -> Components.Schemas.User {
        try requireProvider(provider, app)
        let claims = try await identity.verify(provider: provider, idToken: idToken, app: app)
        try await IdentityTokenUse(database: store.database).accept(claims, idToken: idToken, nonce: nonce, app: app)
        if let owner = try await store.credential(app: app.id, provider: provider, subject: claims.subject) {
            guard owner.userId == user.user.id else { throw KindredError.credentialInUse }
            return try await representation(of: user.user)  // already this account's: nothing to do
        }
        let existing = try await store.credentials(userID: user.user.id)
        guard !existing.contains(where: { $0.provider == provider.rawValue }) else {
            throw KindredError.alreadyLinked(provider.rawValue)
        }
        let credential = CredentialRecord(
            id: RandomID.make(), userId: user.user.id, app: app.id.rawValue, provider: provider.rawValue,
            subject: claims.subject, email: app.storesEmail ? claims.email : nil, passwordHash: nil,
            createdAt: clock.now().millisecondsSince1970
        )
        return try await link(credential, to: user)
    }

    /// Inserts the credential and makes the account permanent, in one transaction.
    private func link(_ credential: CredentialRecord, to user: AuthenticatedUser) async throws -> Components.Schemas.User {
        let store = store
        let outbox = outbox
        let method = switch credential.provider {
        case "apple": "Sign in with Apple"
        case "google": "Google sign-in"
        default: "An e-mail and password"
        }
        let wasAnonymous = user.user.isAnonymous
        try await database.transaction { sql in
            guard try await store.insert(credential, on: sql) else { throw KindredError.credentialInUse }
            try await store.markPermanent(userID: user.user.id, on: sql)
            // A new way into an existing account is security news; an upgrade from anonymous is not.
            if !wasAnonymous, let app = AppID(rawValue: user.user.app) {
                try await outbox.enqueue(
                    OutgoingNotification(
                        userID: user.user.id, app: app, type: .accountSecurity, title: "New sign-in method",
                        body: "\(method) was added to your account. If this wasn't you, change your password and sign out other devices.",
                        data: ["event": "credential_added", "provider": credential.provider]
                    ),
                    on: sql
                )
            }
        }
        if !wasAnonymous { queue.wake() }
        guard let updated = try await store.user(id: user.user.id) else { throw KindredError.sessionRevoked }
        return try await representation(of: updated)
    }

    // MARK: - Representation

    /// The API form of an account, with its providers and e-mail read from its credentials.
    package func representation(of user: UserRecord) async throws -> Components.Schemas.User {
        representation(of: user, credentials: try await store.credentials(userID: user.id))
    }

    /// The API form of an account with the given credentials.
    func representation(of user: UserRecord, credentials: [CredentialRecord]) -> Components.Schemas.User {
        let email = credentials.first(where: { $0.provider == "password" })?.email
            ?? credentials.compactMap(\.email).first
        return .init(
            id: user.id,
            app: Components.Schemas.AppID(rawValue: user.app) ?? .closer,
            isAnonymous: user.isAnonymous,
            providers: credentials.compactMap { .init(rawValue: $0.provider) },
            email: email,
            displayName: user.displayName,
            firstName: user.firstName,
            lastName: user.lastName,
            photoURL: user.photoUrl,
            timeZone: user.timeZone,
            locale: user.locale,
            createdAt: Date(timeIntervalSince1970: TimeInterval(user.createdAt) / 1000)
        )
    }

    /// The accounts domain's entry in the deletion/export registry.
    package static let userDataEntry = UserDataEntry(
        domain: "accounts",
        tables: [
            UserDataTable("kindred_refresh_tokens", omitting: ["token_hash"]),
            UserDataTable("kindred_sessions"),
            UserDataTable("kindred_credentials", omitting: ["password_hash"]),
        ]
    )
}
