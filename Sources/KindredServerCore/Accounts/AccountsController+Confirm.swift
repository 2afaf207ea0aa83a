import Foundation
import KindredAPI
import KindredStore
import SQLKit

/// Sensitive actions a domain asks the account for: re-entering the password, and signing every
/// other device out (SoulMate's session-lock takeover).
extension AccountsController {
    /// Checks `password` against the account's password credential, with the login's limits:
    /// failures count against the account and the client address, and a limited caller gets
    /// 429 `rate_limited` before any hash is computed.
    /// - Throws: 401 `invalid_credentials` for a wrong password or an account without one.
    package func confirmPassword(_ user: AuthenticatedUser, password: String, scope: RequestScope) async throws {
        let limits = passwordLimits(accountKey: "password-confirm-failures:\(user.id)", scope: scope)
        try await limits.check()
        let credential = try await store.credentials(userID: user.id).first { $0.provider == "password" }
        let matches = AccountInput.isPlausiblePassword(password)
            ? try await hasher.verify(password, phc: credential?.passwordHash) : false
        guard matches, credential != nil else {
            try await limits.recordFailure()
            scope.logger.notice("password confirmation failed", metadata: ["app": "\(user.app)"])
            throw KindredError.invalidCredentials
        }
        try await limits.succeeded()
    }

    /// The failure limits of one password check: `accountKey` (per account) and the caller's
    /// address (unless the address is exempt), both over 15 minutes.
    func passwordLimits(accountKey: String, scope: RequestScope) -> PasswordLimits {
        PasswordLimits(
            rateLimiter: rateLimiter, accountKey: accountKey, addressKey: "login-failures-address:\(scope.clientAddress)",
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

/// The failure counters a password check consults before hashing and updates after.
struct PasswordLimits {
    let rateLimiter: RateLimiter
    let accountKey: String
    let addressKey: String
    let perAccount: Int
    let perAddress: Int
    let exempt: Bool
    let window = Duration.seconds(900)

    /// 429 `rate_limited` when either counter is full (no hash is computed then).
    func check() async throws {
        for (key, limit) in [(accountKey, perAccount), (addressKey, perAddress)] where !(exempt && key == addressKey) {
            if case .retryAfter(let seconds) = try await rateLimiter.peek(key: key, limit: limit, window: window) {
                throw KindredError.rateLimited(retryAfterSeconds: seconds)
            }
        }
    }

    /// Counts a wrong password against the account and the address.
    func recordFailure() async throws {
        try await rateLimiter.record(key: accountKey)
        if !exempt { try await rateLimiter.record(key: addressKey) }
    }

    /// Clears the account's counter after a right password.
    func succeeded() async throws {
        try await rateLimiter.reset(key: accountKey)
    }
}
