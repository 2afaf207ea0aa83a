import Foundation
import KindredAPI
import KindredStore
import SQLKit

/// Sensitive actions a domain asks the account for: re-entering the password, and signing every
/// other device out (SoulMate's session-lock takeover).
extension AccountsController {
    /// Checks `password` against the account's password credential, with the login's limits:
    /// each attempt is reserved against the account and the client address before its hash is
    /// computed (a limited caller gets 429 `rate_limited`), and only a right password gives it back.
    /// - Throws: 401 `invalid_credentials` for a wrong password or an account without one.
    package func confirmPassword(_ user: AuthenticatedUser, password: String, scope: RequestScope) async throws {
        let limits = passwordLimits(accountKey: "password-confirm-failures:\(user.id)", scope: scope)
        try await limits.reserve()
        let credential = try await store.credentials(userID: user.id).first { $0.provider == "password" }
        let matches = try await limits.evaluate {
            AccountInput.isPlausiblePassword(password) ? try await hasher.verify(password, phc: credential?.passwordHash) : false
        }
        guard matches, credential != nil else {
            scope.logger.notice("password confirmation failed", metadata: ["app": "\(user.app)"])
            throw KindredError.invalidCredentials
        }
        try await limits.succeeded()
    }

    /// The failure limits of one password check: `accountKey` (per account) and the caller's
    /// address (unless the address is exempt), both over 15 minutes.
    func passwordLimits(accountKey: String, scope: RequestScope) -> PasswordLimits {
        PasswordLimits(
            reservations: AttemptReservations(database: database, clock: clock, window: PasswordLimits.window),
            accountKey: accountKey, addressKey: "login-failures-address:\(addressKey(scope))",
            perAccount: settings.loginFailuresPerAccount, perAddress: settings.loginFailuresPerAddress, exempt: isExempt(scope)
        )
    }

    /// Revokes every live session of the account but the caller's own: their tokens stop working
    /// and their realtime connections close.
    /// - Returns: how many sessions were revoked.
    @discardableResult
    package func revokeOtherSessions(of user: AuthenticatedUser) async throws -> Int {
        let ids = try await database.sql.select().column("id").from("kindred_sessions")
            .where("user_id", .equal, user.id).where("id", .notEqual, user.sessionID)
            .where("revoked_at", .is, SQLLiteral.null).all()
            .map { try $0.decode(column: "id", as: String.self) }
        for id in ids { try await tokens.revoke(sessionID: id) }
        return ids.count
    }

    /// The first and last names of accounts, for a domain that shows one person to another
    /// (SoulMate's pair requests). Accounts not found are left out.
    package func names(of userIDs: [String], on sql: (any SQLDatabase)? = nil) async throws -> [String: PersonName] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await (sql ?? database.sql).select().columns("id", "first_name", "last_name").from("kindred_users")
            .where("id", .in, Array(Set(userIDs))).all()
        var names: [String: PersonName] = [:]
        for row in rows {
            names[try row.decode(column: "id", as: String.self)] = PersonName(
                first: try row.decode(column: "first_name", as: String?.self),
                last: try row.decode(column: "last_name", as: String?.self)
            )
        }
        return names
    }
}

/// An account's first and last name, as its profile holds them.
package struct PersonName: Sendable, Equatable {
    package var first: String?
    package var last: String?

    /// A name pair.
    package init(first: String?, last: String?) {
        self.first = first
        self.last = last
    }

    /// Whether both are present (SoulMate's complete profile).
    package var isComplete: Bool { !(first ?? "").isEmpty && !(last ?? "").isEmpty }
}

/// The failure counters of one password check. An attempt is reserved (counted as a failure)
/// before its hash is computed, so concurrent attempts cannot all pass the limit; a wrong
/// password keeps the reservation, a right one clears the account's failures and gives the
/// address's reservation back.
struct PasswordLimits {
    let reservations: AttemptReservations
    let accountKey: String
    let addressKey: String
    let perAccount: Int
    let perAddress: Int
    let exempt: Bool

    /// The failure window of logins and password confirmations (15 minutes).
    static let window = Duration.seconds(900)

    /// Counts this attempt as a failure against the account and the address (unless exempt),
    /// or throws 429 `rate_limited` when either is full; no hash is computed then.
    func reserve() async throws {
        var limits = [AttemptReservations.Limit(key: accountKey, limit: perAccount)]
        if !exempt { limits.append(.init(key: addressKey, limit: perAddress)) }
        if let seconds = try await reservations.reserve(limits) {
            throw KindredError.rateLimited(retryAfterSeconds: seconds)
        }
    }

    /// Runs the password check; when the hasher's queue is full (429 at once) the reservations
    /// are given back, since no password was evaluated.
    func evaluate(_ check: () async throws -> Bool) async throws -> Bool {
        do {
            return try await check()
        } catch let error as KindredError {
            if case .rateLimited = error {
                try await reservations.release(key: accountKey)
                if !exempt { try await reservations.release(key: addressKey) }
            }
            throw error
        }
    }

    /// After a right password: clears the account's failures and gives back the address's
    /// reservation.
    func succeeded() async throws {
        try await reservations.reset(key: accountKey)
        if !exempt { try await reservations.release(key: addressKey) }
    }
}
