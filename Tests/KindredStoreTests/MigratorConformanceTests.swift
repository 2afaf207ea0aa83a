import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The migrator's contract, on every backend.
@Suite struct MigratorConformanceTests {
    static let widgets = Migration("0001_widgets") { sql in
        try await sql.create(table: "widgets")
            .column("id", type: .bigint, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .run()
    }
    static let gadgets = Migration("0002_gadgets") { sql in
        try await sql.create(table: "gadgets").column("id", type: .bigint, .primaryKey(autoIncrement: false)).run()
    }

    struct Boom: Error {}

    @Test(arguments: Backend.all)
    func appliesEachMigrationOnceInOrder(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock()
            let migrator = try Migrator([Self.widgets, Self.gadgets])
            #expect(try await migrator.migrate(database, clock: clock) == ["0001_widgets", "0002_gadgets"])
            let applied = try await migrator.applied(on: database)
            #expect(applied.map(\.name) == ["0001_widgets", "0002_gadgets"])
            #expect(applied.map(\.domain) == [Migrator.defaultDomain, Migrator.defaultDomain])
            #expect(applied.map(\.sequence) == [1, 2])
            #expect(applied.allSatisfy { $0.appliedAt == clock.now() })
            #expect(await database.sql.tableExists("widgets"))
            #expect(await database.sql.tableExists("gadgets"))
            #expect(await database.sql.tableExists("kindred_schema_migrations"))
            #expect(await !database.sql.tableExists("kindred_migrations"))
        }
    }

    @Test(arguments: Backend.all)
    func rerunIsANoOp(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let first = try Migrator([Self.widgets])
            try await first.migrate(database)
            try await database.sql.insert(into: "widgets").columns("id", "name").values(SQLBind(1), SQLBind("a")).run()
            #expect(try await first.migrate(database) == [])
            // Appending a migration applies only the new one, and keeps the data.
            let second = try Migrator([Self.widgets, Self.gadgets])
            #expect(try await second.migrate(database) == ["0002_gadgets"])
            #expect(try await second.migrate(database) == [])
            #expect(try await database.sql.count("widgets") == 1)
            #expect(try await second.applied(on: database).count == 2)
        }
    }

    @Test(arguments: Backend.all)
    func refusesUnknownAppliedMigrations(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator([Self.widgets, Self.gadgets]).migrate(database)
            let older = try Migrator([Self.widgets])
            await #expect(throws: KindredStoreError.unknownAppliedMigrations(["0002_gadgets"])) {
                try await older.migrate(database)
            }
        }
    }

    @Test(arguments: Backend.all)
    func refusesADifferentOrder(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator([Self.widgets]).migrate(database)
            let reordered = try Migrator([Self.gadgets, Self.widgets])
            await #expect(
                throws: KindredStoreError.migrationOrderMismatch(
                    domain: "main", position: 1, expected: "0002_gadgets", applied: "0001_widgets"
                )
            ) {
                try await reordered.migrate(database)
            }
            #expect(await !database.sql.tableExists("gadgets"))
        }
    }

    @Test(arguments: Backend.all)
    func failedMigrationRollsBackEntirely(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let broken = Migration("0002_broken") { sql in
                try await sql.create(table: "half_done").column("id", type: .bigint).run()
                throw Boom()
            }
            let migrator = try Migrator([Self.widgets, broken])
            await #expect(throws: KindredStoreError.self) { try await migrator.migrate(database) }
            #expect(try await migrator.applied(on: database).map(\.name) == ["0001_widgets"])
            #expect(await !database.sql.tableExists("half_done"))
        }
    }

    @Test func refusesDuplicateNames() {
        #expect(throws: KindredStoreError.duplicateMigrationName("0001_widgets")) {
            try Migrator([Self.widgets, Self.gadgets, Self.widgets])
        }
    }

    @Test(arguments: Backend.all)
    func storeMigrationsApply(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let migrator = try Migrator([StoreMigrations.domain])
            #expect(try await migrator.migrate(database) == ["0001_rate_limit_events"])
            #expect(try await database.sql.count("kindred_rate_limit_events") == 0)
            #expect(try await migrator.applied(on: database).map(\.domain) == ["store"])
        }
    }
}

/// Two servers starting together on one database.
@Suite struct ConcurrentMigrationTests {
    @Test(arguments: Backend.all)
    func twoMigratorsAtOnceApplyEachMigrationOnce(backend: Backend) async throws {
        try await TestDatabases.with(backend) { first in
            let second = try await Database.open(first.configuration)
            let slow = Migration("0001_slow") { sql in
                try await sql.create(table: "slow").column("id", type: .bigint).run()
                try await Task.sleep(for: .milliseconds(300))  // keeps the two runs overlapping
            }
            let migrator = try Migrator([slow, MigratorConformanceTests.gadgets])
            do {
                async let fromFirst = migrator.migrate(first)
                async let fromSecond = migrator.migrate(second)
                let applied = try await [fromFirst, fromSecond]
                #expect(applied.flatMap { $0 }.sorted() == ["0001_slow", "0002_gadgets"])
                #expect(try await migrator.applied(on: first).map(\.name) == ["0001_slow", "0002_gadgets"])
                await second.close()
            } catch {
                await second.close()
                throw error
            }
        }
    }
}
