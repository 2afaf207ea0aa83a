import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Upgrading a database from the single global sequence of `kindred_migrations` to
/// per-domain records, on every backend.
@Suite struct MigratorLegacyTests {
    /// When the legacy records say a1, b1 and c1 were applied (2025-01-01 plus 1, 2, 3 s).
    static let legacyAppliedAt: [Int64] = [1_735_689_601_000, 1_735_689_602_000, 1_735_689_603_000]

    /// Makes the database an earlier build left: `kindred_migrations` with exactly its DDL and
    /// one row per name at sequences 1, 2, …, and the table each named migration created.
    static func makeLegacyDatabase(_ sql: any SQLDatabase, names: [String]) async throws {
        try await sql.create(table: "kindred_migrations")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("sequence", type: .bigint, .notNull, .unique)
            .column("applied_at", type: .bigint, .notNull)
            .run()
        for (index, name) in names.enumerated() {
            try await sql.insert(into: "kindred_migrations").columns("name", "sequence", "applied_at")
                .values(SQLBind(name), SQLBind(index + 1), SQLBind(legacyAppliedAt[index % legacyAppliedAt.count]))
                .run()
            try await sql.create(table: "t_\(name)").column("id", type: .bigint, .primaryKey(autoIncrement: false)).run()
            try await sql.insert(into: "t_\(name)").columns("id").values(SQLBind(index + 1)).run()
        }
    }

    /// The legacy table's names in sequence order (nil when the table is gone).
    static func legacyNames(_ sql: any SQLDatabase) async -> [String]? {
        try? await sql.select().column("name").from("kindred_migrations").orderBy("sequence").all()
            .map { try $0.decode(column: "name", as: String.self) }
    }

    @Test(arguments: Backend.all)
    func upgradesWithoutReapplyingThenAppliesAnAppendedMigration(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeLegacyDatabase(database.sql, names: ["a1", "b1", "c1"])
            let up = CountingMigrations()
            let same = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1"]), up.domain("C", ["c1"])])
            #expect(try await same.migrate(database) == [])
            #expect(up.counts.isEmpty)
            #expect(await Self.legacyNames(database.sql) == nil)
            let upgraded = try await same.applied(on: database)
            #expect(upgraded.map(\.name) == ["a1", "b1", "c1"])
            #expect(upgraded.map(\.domain) == ["A", "B", "C"])
            #expect(upgraded.map(\.sequence) == [1, 1, 1])
            #expect(upgraded.map { $0.appliedAt.millisecondsSince1970 } == Self.legacyAppliedAt)

            let clock = TestClock()
            let appended = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1", "b2"]), up.domain("C", ["c1"])])
            #expect(try await appended.migrate(database, clock: clock) == ["b2"])
            #expect(try await appended.migrate(database, clock: clock) == [])
            #expect(up.counts == ["b2": 1])
            let applied = try await appended.applied(on: database)
            #expect(applied.map(\.name) == ["a1", "b1", "b2", "c1"])
            #expect(applied.map(\.sequence) == [1, 1, 2, 1])
            #expect(applied.map(\.appliedAt) == upgraded.prefix(2).map(\.appliedAt) + [clock.now(), upgraded[2].appliedAt])
            for table in ["t_a1", "t_b1", "t_c1"] {
                #expect(try await database.sql.count(table) == 1)
            }
            #expect(await database.sql.tableExists("t_b2"))
        }
    }

    @Test(arguments: Backend.all)
    func upgradesAndAppliesTheAppendedMigrationInOneRun(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            // Several migrations per domain, interleaved in the global sequence.
            try await Self.makeLegacyDatabase(database.sql, names: ["a1", "b1", "a2", "c1", "b2"])
            let up = CountingMigrations()
            let migrator = try Migrator([
                up.domain("A", ["a1", "a2"]), up.domain("B", ["b1", "b2", "b3"]), up.domain("C", ["c1"]),
            ])
            #expect(try await migrator.migrate(database) == ["b3"])
            #expect(up.counts == ["b3": 1])
            let applied = try await migrator.applied(on: database)
            #expect(applied.map(\.name) == ["a1", "a2", "b1", "b2", "b3", "c1"])
            #expect(applied.map(\.sequence) == [1, 2, 1, 2, 3, 1])
            #expect(await Self.legacyNames(database.sql) == nil)
        }
    }

    @Test(arguments: Backend.all)
    func unknownLegacyMigrationLeavesTheLegacyTableUntouched(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeLegacyDatabase(database.sql, names: ["a1", "zz_newer", "b1"])
            let up = CountingMigrations()
            let migrator = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1", "b2"])])
            await #expect(throws: KindredStoreError.unknownAppliedMigrations(["zz_newer"])) {
                try await migrator.migrate(database)
            }
            await #expect(throws: KindredStoreError.unknownAppliedMigrations(["zz_newer"])) {
                try await migrator.applied(on: database)
            }
            #expect(up.counts.isEmpty)
            #expect(await Self.legacyNames(database.sql) == ["a1", "zz_newer", "b1"])
            // The new table was created in the same transaction, and rolled back with it.
            #expect(await !database.sql.tableExists("kindred_schema_migrations"))
            #expect(await !database.sql.tableExists("t_b2"))
        }
    }

    @Test(arguments: Backend.all)
    func legacyOrderThatDoesNotFitADomainIsRefusedUntouched(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeLegacyDatabase(database.sql, names: ["a1", "b2", "b1"])
            let up = CountingMigrations()
            let migrator = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1", "b2"])])
            await #expect(
                throws: KindredStoreError.migrationOrderMismatch(domain: "B", position: 1, expected: "b1", applied: "b2")
            ) {
                try await migrator.migrate(database)
            }
            #expect(up.counts.isEmpty)
            #expect(await Self.legacyNames(database.sql) == ["a1", "b2", "b1"])
        }
    }
}
