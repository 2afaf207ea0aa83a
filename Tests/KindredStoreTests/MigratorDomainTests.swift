import Foundation
import KindredStore
import KindredTestSupport
import NIOConcurrencyHelpers
import SQLKit
import Testing

/// Migrations that each create one table (`t_<name>`) and count how many times they ran.
final class CountingMigrations: Sendable {
    private let calls = NIOLockedValueBox<[String: Int]>([:])

    /// A migration named `name` that creates the table `t_<name>`.
    func migration(_ name: String) -> Migration {
        Migration(name) { sql in
            self.calls.withLockedValue { $0[name, default: 0] += 1 }
            try await sql.create(table: "t_\(name)").column("id", type: .bigint, .primaryKey(autoIncrement: false)).run()
        }
    }

    /// A domain of such migrations.
    func domain(_ name: String, _ migrationNames: [String]) -> MigrationDomain {
        MigrationDomain(name, migrationNames.map(migration))
    }

    /// How many times each migration's `up` ran, by name (absent: never).
    var counts: [String: Int] { calls.withLockedValue { $0 } }
}

/// The migrator's per-domain order, on every backend.
@Suite struct MigratorDomainTests {
    @Test(arguments: Backend.all)
    func appendingToAMiddleDomainAppliesOnlyTheNewMigration(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let up = CountingMigrations()
            let clock = TestClock()
            let start = clock.now()
            let older = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1"]), up.domain("C", ["c1"])])
            #expect(try await older.migrate(database, clock: clock) == ["a1", "b1", "c1"])
            try await database.sql.insert(into: "t_b1").columns("id").values(SQLBind(7)).run()

            clock.advance(by: .seconds(60))
            let newer = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1", "b2"]), up.domain("C", ["c1"])])
            #expect(try await newer.migrate(database, clock: clock) == ["b2"])
            let applied = try await newer.applied(on: database)
            #expect(applied.map(\.name) == ["a1", "b1", "b2", "c1"])
            #expect(applied.map(\.domain) == ["A", "B", "B", "C"])
            #expect(applied.map(\.sequence) == [1, 1, 2, 1])
            #expect(applied.map(\.appliedAt) == [start, start, clock.now(), start])
            #expect(up.counts == ["a1": 1, "b1": 1, "c1": 1, "b2": 1])
            for table in ["t_a1", "t_b1", "t_b2", "t_c1"] {
                #expect(await database.sql.tableExists(table))
            }
            #expect(try await database.sql.count("t_b1") == 1)
        }
    }

    @Test(arguments: Backend.all)
    func appliesDomainByDomainInTheGivenOrder(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let up = CountingMigrations()
            let migrator = try Migrator([up.domain("Z", ["z1", "z2"]), up.domain("A", ["a1"]), up.domain("M", [])])
            #expect(try await migrator.migrate(database) == ["z1", "z2", "a1"])
            #expect(migrator.migrations.map(\.name) == ["z1", "z2", "a1"])
            #expect(migrator.domains.map(\.name) == ["Z", "A", "M"])
            // The code's domain order, not the names' alphabetical order.
            #expect(try await migrator.applied(on: database).map(\.name) == ["z1", "z2", "a1"])
        }
    }

    @Test(arguments: Backend.all)
    func orderMismatchNamesTheDomain(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let up = CountingMigrations()
            try await Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1", "b2"])]).migrate(database)
            let reordered = try Migrator([up.domain("A", ["a1", "a2"]), up.domain("B", ["b2", "b1"])])
            let expected = KindredStoreError.migrationOrderMismatch(domain: "B", position: 1, expected: "b2", applied: "b1")
            await #expect(throws: expected) { try await reordered.migrate(database) }
            #expect(expected.description == "migration 1 of domain B applied to the database is b1, the code expects b2")
            // Nothing applied: the check runs before any migration, even in another domain.
            #expect(await !database.sql.tableExists("t_a2"))
            #expect(up.counts == ["a1": 1, "b1": 1, "b2": 1])
        }
    }

    @Test(arguments: Backend.all)
    func refusesAMigrationRecordedInAnotherDomain(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let up = CountingMigrations()
            try await Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1"])]).migrate(database)
            let moved = try Migrator([up.domain("A", []), up.domain("B", ["a1", "b1"])])
            await #expect(throws: KindredStoreError.migrationInWrongDomain(name: "a1", recorded: "A", expected: "B")) {
                try await moved.migrate(database)
            }
        }
    }

    @Test(arguments: Backend.all)
    func refusesAppliedMigrationsOfUnknownDomainsOrNames(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let up = CountingMigrations()
            try await Migrator([up.domain("A", ["a1", "a2"]), up.domain("B", ["b1"])]).migrate(database)
            // A build without domain B, then one whose domain A stops at a1 (both older builds).
            await #expect(throws: KindredStoreError.unknownAppliedMigrations(["b1"])) {
                try await Migrator([up.domain("A", ["a1", "a2"])]).migrate(database)
            }
            await #expect(throws: KindredStoreError.unknownAppliedMigrations(["a2"])) {
                try await Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1"])]).migrate(database)
            }
        }
    }

    @Test func refusesDuplicateNamesAcrossDomains() {
        let up = CountingMigrations()
        #expect(throws: KindredStoreError.duplicateMigrationName("shared")) {
            try Migrator([up.domain("A", ["a1", "shared"]), up.domain("B", ["shared"])])
        }
        #expect(throws: KindredStoreError.duplicateMigrationName("a1")) {
            try Migrator([up.domain("A", ["a1", "a1"])])
        }
    }

    @Test func refusesDuplicateDomainNames() {
        let up = CountingMigrations()
        #expect(throws: KindredStoreError.duplicateMigrationDomain("A")) {
            try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1"]), up.domain("A", ["a2"])])
        }
        #expect(KindredStoreError.duplicateMigrationDomain("A").description == "two migration domains are named A")
    }

    @Test(arguments: Backend.all)
    func rerunIsANoOpAndALaterDomainApplies(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let up = CountingMigrations()
            let first = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1"])])
            #expect(try await first.migrate(database) == ["a1", "b1"])
            #expect(try await first.migrate(database) == [])

            // A domain registered after the others, then one registered between them.
            let appended = try Migrator([up.domain("A", ["a1"]), up.domain("B", ["b1"]), up.domain("D", ["d1", "d2"])])
            #expect(try await appended.migrate(database) == ["d1", "d2"])
            #expect(try await appended.migrate(database) == [])
            let inserted = try Migrator([
                up.domain("A", ["a1"]), up.domain("M", ["m1"]), up.domain("B", ["b1"]), up.domain("D", ["d1", "d2"]),
            ])
            #expect(try await inserted.migrate(database) == ["m1"])
            #expect(try await inserted.migrate(database) == [])

            let applied = try await inserted.applied(on: database)
            #expect(applied.map(\.name) == ["a1", "m1", "b1", "d1", "d2"])
            #expect(applied.map(\.sequence) == [1, 1, 1, 1, 2])
            #expect(up.counts == ["a1": 1, "b1": 1, "d1": 1, "d2": 1, "m1": 1])
        }
    }
}
