@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import Logging
import SQLKit
import Testing

/// The user page's domain data summary counts a user's rows in every table each domain
/// registers (`UserDataRegistry`): on SQLite each count must search an index on the user
/// column, never scan the table (the page stays fast with a million users).
@Suite struct AdminDataSummaryPlanTests {
    @Test func everySummaryCountSearchesAnIndexOnTheUserColumn() async throws {
        try await TestDatabases.with(.sqlite) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: AdminAccountsAtScaleTests.quiet)
            let sql = database.sql
            let registry = UserDataRegistry.server(domains: ServerDomains.all())
            var checked: [String] = []
            var scans: [String] = []
            for entry in registry.entries {
                for table in entry.tables where table.name != "kindred_users" {
                    let count = AdminAccounts.rowCount(of: table, userID: "u-1", on: sql)
                    let plan = try await AdminAccountsAtScaleTests.plan(sql, SQLQueryString("EXPLAIN QUERY PLAN \(count.query)"))
                    // `SEARCH t USING [COVERING] INDEX i (user_id=?)` or the primary key's.
                    let searches = plan.hasPrefix("SEARCH \(table.name) USING") && plan.contains("(\(table.userColumn)=?")
                    if !searches { scans.append("\(table.name): \(plan)") }
                    checked.append(table.name)
                }
            }
            #expect(scans == [], "\(scans)")
            // The domains' tables are all there (a registry that lost them would check nothing).
            for table in ["kindred_sessions", "kindred_push_tokens", "closer_answers", "soulmate_pairs", "kindred_notifications"] {
                #expect(checked.contains(table), "\(checked)")
            }
        }
    }
}
