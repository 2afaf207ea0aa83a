@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import Logging
import SQLKit
import Testing

/// The console's account reads stay index reads at a million users (`scripts/bench-console`):
/// the overview's totals are a kept snapshot plus the accounts created since (exact but for
/// deletions until the next refresh), name search reads the lower-cased name indexes, and "active
/// in the last day" reads `kindred_sessions_active`.
@Suite struct AdminAccountsAtScaleTests {
    @Test(arguments: Backend.all)
    func totalsAreASnapshotPlusTheAccountsCreatedSince(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: Self.quiet)
            let clock = TestClock(start: Date(timeIntervalSince1970: 1_790_000_000))
            let accounts = AdminAccounts(database: database, clock: clock, apps: ["closer", "pulse"], refreshLifetime: .seconds(30 * 86_400))
            let now = clock.now().millisecondsSince1970
            try await Self.insertUsers(database, app: "closer", count: 5, createdAt: now - 86_400_000 * 40)
            try await Self.insertUsers(database, app: "pulse", count: 2, createdAt: now - 1000)

            var overview = try await accounts.overview(now: clock.now())
            #expect(overview.map(\.total) == [5, 2])
            let first = try await accounts.totals.current(now: now, database: database, apps: accounts.apps)
            #expect(first.takenAt == now && first.totals == ["closer": 5, "pulse": 2])

            // New accounts count at once, through the correction, without a new snapshot.
            clock.advance(by: .seconds(60))
            try await Self.insertUsers(database, app: "closer", count: 3, createdAt: clock.now().millisecondsSince1970, prefix: "new")
            overview = try await accounts.overview(now: clock.now())
            #expect(overview.map(\.total) == [8, 2])
            #expect(overview.first?.today == 3)
            #expect(try await accounts.totals.current(now: clock.now().millisecondsSince1970, database: database, apps: accounts.apps) == first)

            // A deletion leaves the total at the next refresh (older than five minutes).
            try await database.sql.delete(from: "kindred_users").where("id", .equal, "closer-0").run()
            overview = try await accounts.overview(now: clock.now())
            #expect(overview.map(\.total) == [8, 2])
            clock.advance(by: .seconds(301))
            let stale = clock.now().millisecondsSince1970
            _ = try await accounts.overview(now: clock.now())  // starts the refresh in the background
            var refreshed = first
            for _ in 0..<200 where refreshed.takenAt != stale {
                try await Task.sleep(for: .milliseconds(10))
                refreshed = try await accounts.totals.current(now: stale, database: database, apps: accounts.apps)
            }
            #expect(refreshed.takenAt == stale && refreshed.totals == ["closer": 7, "pulse": 2])
            overview = try await accounts.overview(now: clock.now())
            #expect(overview.map(\.total) == [7, 2])
        }
    }

    @Test(arguments: Backend.all)
    func nameSearchMatchesPrefixesOfEveryNameCaseInsensitively(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: Self.quiet)
            let clock = TestClock(start: Date(timeIntervalSince1970: 1_790_000_000))
            let accounts = AdminAccounts(database: database, clock: clock, apps: ["closer"], refreshLifetime: .seconds(86_400))
            try await Self.insertUsers(database, app: "closer", count: 4, createdAt: 1)
            let names: [(String, String, String?)] = [
                ("closer-0", "display_name", "Alice Liddell"), ("closer-1", "first_name", "ALIce"),
                ("closer-2", "last_name", "Alicante"), ("closer-3", "display_name", "Bob %_ Alice"),
            ]
            for (id, column, value) in names {
                try await database.sql.update("kindred_users").set(SQLIdentifier(column), to: SQLBind(value)).where("id", .equal, id).run()
            }
            #expect(Set(try await accounts.search("ali", app: nil, limit: 50).map(\.id)) == ["closer-0", "closer-1", "closer-2"])
            #expect(try await accounts.search("Alice L", app: nil, limit: 50).map(\.id) == ["closer-0"])
            #expect(try await accounts.search("bob %_", app: nil, limit: 50).map(\.id) == ["closer-3"])
            #expect(try await accounts.search("%", app: nil, limit: 50).isEmpty)
            #expect(try await accounts.search("ali", app: "pulse", limit: 50).isEmpty)
            #expect(try await accounts.search("ali", app: nil, limit: 2).count == 2)
        }
    }

    /// SQLite's plans: the name search is a union of the three name indexes, the active count a
    /// range of `kindred_sessions_active` — never a scan of the accounts or sessions.
    @Test func theReadsUseTheirIndexes() async throws {
        try await TestDatabases.with(.sqlite) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: Self.quiet)
            let sql = database.sql
            let search = AdminAccounts.nameMatches("ali", app: nil, on: sql).limit(50)
            let searchPlan = try await Self.plan(sql, SQLQueryString("EXPLAIN QUERY PLAN \(search.query)"))
            for index in ["kindred_users_display_name", "kindred_users_first_name", "kindred_users_last_name"] {
                #expect(searchPlan.contains(index), "\(searchPlan)")
            }
            #expect(!searchPlan.contains("SCAN kindred_users"), "\(searchPlan)")
            let active = try await Self.plan(sql, SQLQueryString("""
                EXPLAIN QUERY PLAN SELECT COUNT(DISTINCT user_id) FROM kindred_sessions \
                WHERE app = \(bind: "closer") AND expires_at > \(bind: 0) AND revoked_at IS NULL
                """))
            #expect(active.contains("kindred_sessions_active"), "\(active)")
        }
    }

    static var quiet: Logger {
        var logger = Logger(label: "kindred.test")
        logger.logLevel = .critical
        return logger
    }

    static func plan(_ sql: any SQLDatabase, _ query: SQLQueryString) async throws -> String {
        try await sql.raw(query).all().map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "; ")
    }

    static func insertUsers(_ database: Database, app: String, count: Int, createdAt: Int64, prefix: String = "") async throws {
        for index in 0..<count {
            try await database.sql.insert(into: "kindred_users")
                .columns("id", "app", "is_anonymous", "created_at", "updated_at")
                .values(SQLBind("\(app)-\(prefix)\(index)"), SQLBind(app), SQLBind(false), SQLBind(createdAt), SQLBind(createdAt)).run()
        }
    }
}
