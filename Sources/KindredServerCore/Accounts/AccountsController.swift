import Foundation
import KindredAPI
import KindredStore
import Logging
import SQLKit

/// The accounts domain: sign-up, sign-in, sessions, the profile, linking, deletion and export.
package struct AccountsController: Sendable {
    package let database: Database
    package let clock: any WallClock
    package let settings: AuthConfiguration
    let store: AccountStore
    let tokens: TokenService
    package let hasher: PasswordHasher
    package let rateLimiter: RateLimiter
    package let identity: any IdentityVerifying
    package let userData: UserDataRegistry
    /// Account-security notifications go here (in the transaction that changed the account).
    package let outbox: NotificationOutbox
    /// Woken after such a notification commits, so it goes out at once.
    package let queue: WorkQueue
    /// Announces profile changes on the user's channel (other devices refresh).
    package let realtime: RealtimePublisher

    /// A signed-in answer: the tokens, the account, and whether it was just created.
    package struct SignedIn: Sendable {
        var tokens: IssuedTokens
        var user: Components.Schemas.User
        var isNewUser: Bool

        var session: Components.Schemas.Session {
            .init(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, tokenType: .bearer,
                expiresIn: tokens.expiresIn, isNewUser: isNewUser, user: user
            )
        }
    }

    // MARK: - Sign-up and sign-in

    /// Creates an anonymous account, limited per client address.
    package func signUpAnonymously(scope: RequestScope, app: AppConfiguration) async throws -> SignedIn {
        try await enforcePerAddress(
            "anonymous-signup", scope: scope, limit: settings.anonymousSignUpsPerHour, window: .seconds(3600)
        )
        return try await createAccount(app: app, isAnonymous: true, displayName: nil, credential: nil)
    }

    /// Creates an account with e-mail and password.
    /// An app with `requiresFullName` (SoulMate) refuses a sign-up without both names
    /// (422 `invalid_profile`); other apps keep the names when given. Sign-ups are limited per
    /// client address (`signUpsPerAddressPerHour`, 429 `rate_limited`) before the e-mail is
    /// looked up or a hash computed, so a flood neither starves logins of hash permits nor
    /// mints unlimited accounts.
    package func signUp(
        email rawEmail: String, password: String, displayName: String?, firstName: String? = nil, lastName: String? = nil,
        scope: RequestScope, app: AppConfiguration
    ) async throws -> SignedIn {
        try requirePasswords(app)
        let email = try AccountInput.email(rawEmail)
        try AccountInput.newPassword(password)
        let name = try displayName.flatMap { try AccountInput.name($0, field: "displayName") }
        let first = try firstName.flatMap { try AccountInput.name($0, field: "firstName") }
        let last = try lastName.flatMap { try AccountInput.name($0, field: "lastName") }
        if app.requiresFullName, first == nil || last == nil {
            throw KindredError.invalidProfile("\(app.displayName) needs firstName and lastName at sign-up")
        }
        try await enforcePerAddress("signup", scope: scope, limit: settings.signUpsPerAddressPerHour, window: .seconds(3600))
        // Refuse a taken address before paying for a hash; the unique index settles races.
        if try await store.credential(app: app.id, provider: .password, subject: email) != nil {
            throw KindredError.emailTaken
        }
        let hash = try await hasher.hash(password)
        let credential = CredentialRecord(
            id: RandomID.make(), userId: "", app: app.id.rawValue, provider: "password",
            subject: email, email: email, passwordHash: hash, createdAt: clock.now().millisecondsSince1970
        )
        return try await createAccount(
            app: app, isAnonymous: false, displayName: name, credential: credential, firstName: first, lastName: last,
            conflict: .emailTaken
        )
    }

    /// Signs in with e-mail and password; failures are limited per account and per address, and
    /// each attempt is counted before its hash is computed (a right password gives it back).
    package func logIn(email rawEmail: String, password: String, scope: RequestScope, app: AppConfiguration) async throws -> SignedIn {
        try requirePasswords(app)
        let email = (try? AccountInput.email(rawEmail)) ?? rawEmail.lowercased()
        let limits = passwordLimits(accountKey: "login-failures:\(app.id.rawValue):\(TokenService.hash(email))", scope: scope)
        try await limits.reserve()
        let credential = try await store.credential(app: app.id, provider: .password, subject: email)
        let matches = try await limits.evaluate {
            AccountInput.isPlausiblePassword(password) ? try await hasher.verify(password, phc: credential?.passwordHash) : false
        }
        guard matches, let credential else {
            scope.logger.notice("login failed", metadata: ["app": "\(app.id.rawValue)"])
            throw KindredError.invalidCredentials
        }
        try await limits.succeeded()
        return try await startSession(userID: credential.userId, app: app, isNewUser: false)
    }

    /// Signs in with an Apple or Google identity token, creating the account on first use. The
    /// token must match `nonce` (`IdentityTokenUse`) and is good for one sign-in.
    package func signIn(
        provider: AppConfiguration.AuthProvider, idToken: String, nonce: String? = nil, firstName: String?, lastName: String?,
        app: AppConfiguration
    ) async throws -> SignedIn {
        try requireProvider(provider, app)
        let claims = try await identity.verify(provider: provider, idToken: idToken, app: app)
        try await IdentityTokenUse(database: store.database).accept(claims, idToken: idToken, nonce: nonce, app: app)
        if let existing = try await store.credential(app: app.id, provider: provider, subject: claims.subject) {
            return try await startSession(userID: existing.userId, app: app, isNewUser: false)
        }
        let credential = CredentialRecord(
            id: RandomID.make(), userId: "", app: app.id.rawValue, provider: provider.rawValue,
            subject: claims.subject, email: app.storesEmail ? claims.email : nil, passwordHash: nil,
            createdAt: clock.now().millisecondsSince1970
        )
        var profile = (first: String?.none, last: String?.none)
        if app.storesEmail {
            profile = (try firstName.flatMap { try AccountInput.name($0, field: "firstName") },
                       try lastName.flatMap { try AccountInput.name($0, field: "lastName") })
        }
        do {
            return try await createAccount(
                app: app, isAnonymous: false, displayName: nil, credential: credential,
                firstName: profile.first, lastName: profile.last, conflict: .credentialInUse
            )
        } catch let error as KindredError where error == .credentialInUse {
            // A concurrent first sign-in of the same subject won the race: sign in to its account.
            guard let winner = try await store.credential(app: app.id, provider: provider, subject: claims.subject) else {
                throw KindredError.credentialInUse
            }
            return try await startSession(userID: winner.userId, app: app, isNewUser: false)
        }
    }

    /// Rotates a refresh token.
    package func refresh(_ refreshToken: String, app: AppConfiguration, logger: Logger) async throws -> SignedIn {
        switch try await tokens.refresh(refreshToken, app: app.id) {
        case .issued(let issued, let userID):
            guard let user = try await store.user(id: userID) else { throw KindredError.invalidRefreshToken }
            return SignedIn(tokens: issued, user: try await representation(of: user), isNewUser: false)
        case .invalid:
            throw KindredError.invalidRefreshToken
        case .reused(let sessionID):
            tokens.sessions.end(.session(sessionID))
            logger.warning("refresh token reused after its grace window; session revoked")
            throw KindredError.refreshTokenReused
        case .disabled:
            throw KindredError.accountDisabled
        }
    }

    // MARK: - Shared steps

    /// Creates a user (and its first credential) and starts its first session, in one transaction.
    func createAccount(
        app: AppConfiguration, isAnonymous: Bool, displayName: String?, credential: CredentialRecord?,
        firstName: String? = nil, lastName: String? = nil, conflict: KindredError = .credentialInUse
    ) async throws -> SignedIn {
        let now = clock.now().millisecondsSince1970
        let user = UserRecord(
            id: RandomID.make(), app: app.id.rawValue, isAnonymous: isAnonymous,
            displayName: displayName, firstName: firstName, lastName: lastName, photoUrl: nil, timeZone: nil,
            locale: nil, disabledAt: nil, createdAt: now, updatedAt: now
        )
        let store = store
        let tokens = tokens
        let session = await tokens.newSession(userID: user.id, app: app.id)
        // A credential taken meanwhile (a concurrent sign-up) rolls the whole account back.
        let issued = try await database.transaction { sql in
            try await store.insert(user, on: sql)
            if var credential {
                credential.userId = user.id
                guard try await store.insert(credential, on: sql) else { throw conflict }
            }
            return try await tokens.insert(session, on: sql)
        }
        let credentials = credential.map { [$0] } ?? []
        return SignedIn(tokens: issued, user: representation(of: user, credentials: credentials), isNewUser: true)
    }

    /// Starts a session for an existing account, unless it is disabled.
    package func startSession(userID: String, app: AppConfiguration, isNewUser: Bool) async throws -> SignedIn {
        guard let user = try await store.user(id: userID) else { throw KindredError.invalidCredentials }
        guard user.disabledAt == nil else { throw KindredError.accountDisabled }
        let tokens = tokens
        let session = await tokens.newSession(userID: userID, app: app.id)
        let issued = try await database.transaction { sql in try await tokens.insert(session, on: sql) }
        return SignedIn(tokens: issued, user: try await representation(of: user), isNewUser: isNewUser)
    }

    /// Admits one event per client address unless the address is exempt.
    package func enforcePerAddress(_ name: String, scope: RequestScope, limit: Int, window: Duration) async throws {
        guard !isExempt(scope) else { return }
        try await rateLimiter.enforce(key: "\(name):\(addressKey(scope))", limit: limit, window: window, logger: scope.logger)
    }

    /// The key of the scope's client in per-address limits (an IPv6 client's network prefix).
    package func addressKey(_ scope: RequestScope) -> String {
        scope.addressKey
    }

    /// Whether the client skips per-address limits (loopback, when configured).
    package func isExempt(_ scope: RequestScope) -> Bool {
        settings.loopbackExempt && TrustedProxies.isLoopback(scope.clientAddress)
    }

    /// Refuses password routes for apps that store no e-mail or do not offer passwords.
    package func requirePasswords(_ app: AppConfiguration) throws {
        guard app.storesEmail, app.authProviders.contains(.password) else {
            throw KindredError.providerDisabled("e-mail and password", app: app.id)
        }
    }

    /// Refuses Apple or Google for apps that do not offer it.
    package func requireProvider(_ provider: AppConfiguration.AuthProvider, _ app: AppConfiguration) throws {
        guard app.authProviders.contains(provider) else {
            throw KindredError.providerDisabled(provider.rawValue, app: app.id)
        }
    }
}
