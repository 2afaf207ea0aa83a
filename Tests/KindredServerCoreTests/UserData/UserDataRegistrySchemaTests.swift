@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Reads the migrated schema and fails when a table holding a user's rows is registered with
/// no deletion/export entry: every domain must register what it stores.
@Suite struct UserDataRegistrySchemaTests {
    /// The tables with a `user_id` column (the convention for "belongs to a user").
    static func tablesWithUserColumn(_ sql: any SQLDatabase) async throws -> Set<String> {
        let rows: [any SQLRow]
        if sql.dialect.name == "sqlite" {
            rows = try await sql.raw(
                "SELECT m.name AS table_name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'user_id'"
            ).all()
        } else {
            rows = try await sql.raw(
                "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'user_id'"
            ).all()
        }
        return Set(try rows.map { try $0.decode(column: "table_name", as: String.self) })
    }

    @Test(arguments: Backend.all)
    func everyTableWithAUserColumnIsRegistered(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database)
            let withUsers = try await Self.tablesWithUserColumn(database.sql)
            #expect(withUsers.contains("kindred_credentials"))  // the query finds what exists
            let unregistered = withUsers.subtracting(UserDataRegistry.server(domains: ServerDomains.all()).coveredTables)
            #expect(unregistered.isEmpty, "register these tables through their domain's userData: \(unregistered.sorted())")

            // The check can fail: a new table with a user column and no entry is reported.
            try await database.sql.create(table: "rogue_notes").column("user_id", type: .text).run()
            let now = try await Self.tablesWithUserColumn(database.sql).subtracting(UserDataRegistry.server(domains: ServerDomains.all()).coveredTables)
            #expect(now == ["rogue_notes"])
        }
    }
}
