import Foundation
import KindredStore
import SQLKit

/// An account as operators see it (`kindred users`): no secrets, no tokens.
public struct AccountSummary: Sendable, Equatable, Codable {
    /// The account id.
    public var id: String
    /// Its app.
    public var app: String
    /// Whether it has no credential yet.
    public var isAnonymous: Bool
    /// Its sign-in methods.
    public var providers: [String]
    /// Its e-mail address, when the app stores one.
    public var email: String?
    /// Its display name.
    public var displayName: String?
    /// When it was created.
    public var createdAt: Date
    /// When an operator disabled it, if so.
    public var disabledAt: Date?
    /// How many sessions are live (not revoked, not expired).
    public var liveSessions: Int
}

/// Operator tasks on accounts, run directly on the database (`kindred users list|show|disable`).
public struct AccountAdministration: Sendable {
    private let store: AccountStore
    private let database: Database
    private let clock: any WallClock

    /// Administers the accounts in `database` (which must be migrated).
    public init(database: Database, clock: any WallClock = SystemClock()) {
        self.database = database
        self.clock = clock
        store = AccountStore(database: database, clock: clock)
    }

    /// The newest accounts first, optionally of one app.
    /// - Parameters:
    ///   - app: only this app's accounts, or all.
    ///   - limit: at most this many (1…1000).
    public func list(app: AppID?, limit: Int) async throws -> [AccountSummary] {
        let users = try await store.list(app: app, limit: min(max(limit, 1), 1000), before: nil)
        var summaries: [AccountSummary] = []
        for user in users { summaries.append(try await summary(of: user)) }
        return summaries
    }

    /// The account with `id`, or nil.
    public func show(id: String) async throws -> AccountSummary? {
        guard let user = try await store.user(id: id) else { return nil }
        return try await summary(of: user)
    }

    /// Disables an account (revoking its sessions) or enables it again.
    /// - Returns: false when there is no such account.
    public func setDisabled(id: String, _ disabled: Bool) async throws -> Bool {
        try await store.setDisabled(userID: id, disabled)
    }

    private func summary(of user: UserRecord) async throws -> AccountSummary {
        let credentials = try await store.credentials(userID: user.id)
        let now = clock.now().millisecondsSince1970
        let live = try await database.sql.select()
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("kindred_sessions")
            .where("user_id", .equal, user.id).where("revoked_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, now)
            .first()?.decode(column: "n", as: Int.self) ?? 0
        return AccountSummary(
            id: user.id, app: user.app, isAnonymous: user.isAnonymous, providers: credentials.map(\.provider),
            email: credentials.compactMap(\.email).first, displayName: user.displayName,
            createdAt: Date(timeIntervalSince1970: TimeInterval(user.createdAt) / 1000),
            disabledAt: user.disabledAt.map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) },
            liveSessions: live
        )
    }
}
