import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// One account in the console's lists.
struct AdminAccountRow: Sendable, Equatable {
    var id, app: String
    var email: String?
    var displayName: String?
    var createdAt: Date
    var disabled: Bool
}

/// One session of an account (a sign-in on one device).
struct AdminAccountSession: Sendable, Equatable {
    var id: String
    var createdAt, refreshedAt, expiresAt: Date
    var revokedAt: Date?
}

/// One push token of an account, without the token itself (only its first characters).
struct AdminPushToken: Sendable, Equatable {
    var app, transport, deviceID, tokenPrefix: String
    var updatedAt: Date
}

/// An app's account numbers on the overview.
struct AdminAppAccounts: Sendable, Equatable {
    var app: String
    var total, today, week, month, activeDay: Int
    /// New accounts per day, 30 days, oldest first.
    var series: [Int]
}

/// The console's reads of the core's account tables: search, a user's sessions and push
/// tokens, and the overview's account numbers. Every query reads an index: users by primary
/// key or (app, created_at), credentials by (app, provider, subject), sessions by user or expiry,
/// push tokens by user, names by their lower-cased indexes (`accounts_0005_console_indexes`).
struct AdminAccounts: Sendable {
    let database: Database
    let clock: any WallClock
    /// The server's app ids, sorted.
    let apps: [String]
    /// The refresh token lifetime: a session's `expires_at` is its last refresh plus this.
    let refreshLifetime: Duration
    /// Each app's account totals, counted at most every five minutes (the overview adds the
    /// accounts created since).
    let totals = AdminAccountTotals()

    /// Accounts matching `text`: the id exactly, a password e-mail exactly (per app), or a name
    /// starting with it; optionally of one app; at most `limit`.
    func search(_ text: String, app: String?, limit: Int) async throws -> [AdminAccountRow] {
        let sql = database.sql
        var ids: [String] = []
        func add(_ id: String) { if !ids.contains(id) { ids.append(id) } }
        if try await sql.select().column("id").from("kindred_users").where("id", .equal, text).first() != nil { add(text) }
        let email = text.lowercased()
        for candidate in app.map({ [$0] }) ?? apps {
            for row in try await sql.select().column("user_id").from("kindred_credentials")
                .where("app", .equal, candidate).where("provider", .equal, "password").where("subject", .equal, email).all() {
                add(try row.decode(column: "user_id", as: String.self))
            }
        }
        if ids.count < limit, !text.isEmpty {
            let query = Self.nameMatches(text, app: app, on: sql)
            for row in try await query.limit(limit).all() { add(try row.decode(column: "id", as: String.self)) }
        }
        return try await rows(ids: Array(ids.prefix(limit)), app: app)
    }

    /// Accounts with a name (display, first or last) starting with `text`, case-insensitively:
    /// one range per name column of its lower-cased index (`kindred_users_display_name`, …), in
    /// code-point order, so at a million accounts the search reads the matches, not every account.
    static func nameMatches(_ text: String, app: String?, on sql: any SQLDatabase) -> SQLSelectBuilder {
        let low = text.lowercased()
        let high = low + "\u{10FFFF}"
        let query = sql.select().column("id").from("kindred_users")
            .where { group in
                var group = group
                for column in ["display_name", "first_name", "last_name"] {
                    group = group.orWhere(SQLQueryString("""
                        (\(ident: column) IS NOT NULL AND LOWER(\(ident: column))\(SQLCodePointCollation()) >= \(bind: low) \
                        AND LOWER(\(ident: column))\(SQLCodePointCollation()) < \(bind: high))
                        """))
                }
                return group
            }
        if let app { query.where("app", .equal, app) }
        return query
    }

    /// The newest accounts of `app` (index `kindred_users_app_created`), `limit` from `offset`.
    func newest(app: String, offset: Int, limit: Int) async throws -> [AdminAccountRow] {
        let ids = try await database.sql.select().column("id").from("kindred_users").where("app", .equal, app)
            .orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).offset(offset).all()
            .map { try $0.decode(column: "id", as: String.self) }
        return try await rows(ids: ids, app: nil)
    }

    /// The rows of `ids`, in that order, with each one's first e-mail.
    private func rows(ids: [String], app: String?) async throws -> [AdminAccountRow] {
        guard !ids.isEmpty else { return [] }
        let sql = database.sql
        var users: [String: AdminAccountRow] = [:]
        for row in try await sql.select().columns("id", "app", "display_name", "created_at", "disabled_at")
            .from("kindred_users").where("id", .in, ids).all() {
            let id = try row.decode(column: "id", as: String.self)
            users[id] = AdminAccountRow(
                id: id, app: try row.decode(column: "app", as: String.self), email: nil,
                displayName: try row.decode(column: "display_name", as: String?.self),
                createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
                disabled: try row.decode(column: "disabled_at", as: Int64?.self) != nil
            )
        }
        for row in try await sql.select().columns("user_id", "email").from("kindred_credentials")
            .where("user_id", .in, ids).where("email", .isNot, SQLLiteral.null).orderBy("created_at").all() {
            let id = try row.decode(column: "user_id", as: String.self)
            if users[id]?.email == nil { users[id]?.email = try row.decode(column: "email", as: String?.self) }
        }
        return ids.compactMap { users[$0] }.filter { app == nil || $0.app == app }
    }

    /// The account's sessions, newest first (at most 100).
    func sessions(userID: String) async throws -> [AdminAccountSession] {
        try await database.sql.select().columns("id", "created_at", "refreshed_at", "expires_at", "revoked_at")
            .from("kindred_sessions").where("user_id", .equal, userID)
            .orderBy("created_at", .descending).limit(100).all()
            .map { row in
                func date(_ column: String) throws -> Date {
                    Date(millisecondsSince1970: try row.decode(column: column, as: Int64.self))
                }
                return AdminAccountSession(
                    id: try row.decode(column: "id", as: String.self), createdAt: try date("created_at"),
                    refreshedAt: try date("refreshed_at"), expiresAt: try date("expires_at"),
                    revokedAt: try row.decode(column: "revoked_at", as: Int64?.self).map(Date.init(millisecondsSince1970:))
                )
            }
    }

    /// The account's push tokens (only the first 8 characters of each token).
    func pushTokens(userID: String) async throws -> [AdminPushToken] {
        try await database.sql.select().columns("app", "transport", "device_id", "token", "updated_at")
            .from("kindred_push_tokens").where("user_id", .equal, userID).orderBy("updated_at", .descending).all()
            .map { row in
                AdminPushToken(
                    app: try row.decode(column: "app", as: String.self),
                    transport: try row.decode(column: "transport", as: String.self),
                    deviceID: try row.decode(column: "device_id", as: String.self),
                    tokenPrefix: String(try row.decode(column: "token", as: String.self).prefix(8)) + "…",
                    updatedAt: Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self))
                )
            }
    }

    /// How many rows each domain's tables hold for the account (row counts only, never content).
    /// Each count is a range of an index whose first column is the table's user column
    /// (`AdminDataSummaryPlanTests` checks every registered table's plan).
    func dataSummary(userID: String, registry: UserDataRegistry) async throws -> [(domain: String, table: String, rows: Int)] {
        var result: [(domain: String, table: String, rows: Int)] = []
        for entry in registry.entries {
            for table in entry.tables where table.name != "kindred_users" {
                let rows = try await Self.rowCount(of: table, userID: userID, on: database.sql)
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                if rows > 0 { result.append((entry.domain, table.name, rows)) }
            }
        }
        return result
    }

    /// The user page's count of `userID`'s rows in `table` (column `n`).
    static func rowCount(of table: UserDataTable, userID: String, on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from(table.name).where(SQLIdentifier(table.userColumn), .equal, SQLBind(userID))
    }

    /// Each app's account numbers at `now`: total, new today (UTC) / 7 / 30 days, with a session
    /// refreshed in the last day, and new accounts per day over 30 days.
    func overview(now: Date) async throws -> [AdminAppAccounts] {
        let sql = database.sql
        let nowMS = now.millisecondsSince1970
        let day: Int64 = 86_400_000
        let activeSince = nowMS + refreshLifetime.milliseconds - day
        let snapshot = try await totals.current(now: nowMS, database: database, apps: apps)
        var result: [AdminAppAccounts] = []
        for app in apps {
            func count(since: Int64) async throws -> Int {
                try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("kindred_users")
                    .where("app", .equal, app).where("created_at", .greaterThanOrEqual, since)
                    .first()?.decode(column: "n", as: Int.self) ?? 0
            }
            let series = try await AdminOverviews.dailySeries(
                sql, table: "kindred_users", timeColumn: "created_at", equal: [("app", app)], now: now
            )
            // Index `kindred_sessions_active` (app, expires_at, user_id) for live sessions.
            let active = try await sql.select()
                .column(SQLFunction("COUNT", args: SQLDistinct(SQLIdentifier("user_id"))), as: "n").from("kindred_sessions")
                .where("app", .equal, app).where("expires_at", .greaterThan, activeSince)
                .where("revoked_at", .is, SQLLiteral.null).first()?.decode(column: "n", as: Int.self) ?? 0
            result.append(AdminAppAccounts(
                app: app, total: (snapshot.totals[app] ?? 0) + (try await count(since: snapshot.takenAt)), today: series.last ?? 0,
                week: try await count(since: nowMS - 7 * day), month: try await count(since: nowMS - 30 * day),
                activeDay: active, series: series
            ))
        }
        return result
    }
}
