import Foundation
import KindredTestSupport
import SQLKit
import Testing

@testable import KindredStore

/// Concurrent transactions: every backend commits each one and answers each caller with its own
/// result; SQLite groups them under one commit, each body in its own savepoint.
@Suite struct GroupCommitConformanceTests {
    struct Boom: Error, Equatable {
        let id: Int
    }

    static func insert(_ id: Int, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "notes").columns("id", "body").values(SQLBind(id), SQLBind("note \(id)")).run()
    }

    static func ids(_ database: Database) async throws -> [Int] {
        try await database.sql.select().column("id").from("notes").orderBy("id").all(decodingColumn: "id", as: Int.self)
    }

    // MARK: - Every backend

    @Test(arguments: Backend.all)
    func concurrentTransactionsAreAllCommittedWithTheirOwnResults(backend: Backend) async throws {
        // PostgreSQL serves them from a pool of 4 connections (each waits its turn, up to the
        // pool's 10 s request timeout), so fewer there: a loaded CI machine must not time out.
        let count = backend == .sqlite ? 100 : 30
        try await TestDatabases.with(backend) { database in
            try await DatabaseConformanceTests.makeTable(database)
            let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for id in 1...count {
                    group.addTask {
                        let result = try await database.transaction { session in
                            try await Self.insert(id, on: session)
                            return "committed \(id)"
                        }
                        return (id, result)
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(results == Dictionary(uniqueKeysWithValues: (1...count).map { ($0, "committed \($0)") }))
            #expect(try await Self.ids(database) == Array(1...count))
        }
    }

    @Test(arguments: Backend.all)
    func aFailingBodyIsRolledBackAloneAndItsErrorGoesToItsCallerOnly(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await DatabaseConformanceTests.makeTable(database)
            let outcomes = try await withThrowingTaskGroup(of: (Int, Result<Int, Boom>).self) { group in
                for id in 1...30 {
                    group.addTask {
                        do {
                            let value = try await database.transaction { session in
                                try await Self.insert(id, on: session)
                                if id % 3 == 0 { throw Boom(id: id) }
                                return id * 10
                            }
                            return (id, .success(value))
                        } catch let boom as Boom {
                            return (id, .failure(boom))
                        }
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for id in 1...30 {
                #expect(outcomes[id] == (id % 3 == 0 ? .failure(Boom(id: id)) : .success(id * 10)))
            }
            #expect(try await Self.ids(database) == (1...30).filter { $0 % 3 != 0 })
        }
    }

    // MARK: - SQLite's groups

    /// Opens an SQLite file database whose groups are bounded by count only, so that a test
    /// decides what lands in one group whatever the machine's speed.
    static func withSQLite(_ body: (Database) async throws -> Void) async throws {
        let folder = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(url: .sqlite(path: folder.url.appendingPathComponent("group.sqlite").path))
        configuration.sqliteGroupLimits = .init(maxBodies: 128, maxDuration: .seconds(3600))
        let database = try await Database.open(configuration)
        do {
            try await DatabaseConformanceTests.makeTable(database)
            try await body(database)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    /// Starts `transactions` while another connection holds the write lock, so that the writer
    /// waits in its `BEGIN IMMEDIATE` until all of them are queued; they then form one group.
    static func asOneGroup<T: Sendable>(
        _ database: Database, _ transactions: [@Sendable () async throws -> T]
    ) async throws -> [Result<T, any Error>] {
        try await database.sql.withSession { blocker in
            try await blocker.raw("BEGIN IMMEDIATE").run()
            // Start them one at a time, each once the one before is queued: tasks started
            // together may reach the queue in any order, and the group's order is the queue's.
            var tasks: [Task<T, any Error>] = []
            for (index, transaction) in transactions.enumerated() {
                tasks.append(Task { try await transaction() })
                // The writer has taken none of them: it is still waiting for the lock.
                let deadline = ContinuousClock.now + .seconds(4)
                while database.queuedTransactions < index + 1, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            #expect(database.queuedTransactions == transactions.count)
            try await blocker.raw("COMMIT").run()
            var results: [Result<T, any Error>] = []
            for task in tasks { results.append(await task.result) }
            return results
        }
    }

    @Test func bodiesOfOneGroupSeeEarlierBodiesWritesAndFailAlone() async throws {
        try await Self.withSQLite { database in
            let before = try #require(database.groupCommitStatistics)
            let transactions: [@Sendable () async throws -> Int] = [
                { try await database.transaction { try await Self.insert(1, on: $0); return try await $0.count("notes") } },
                {
                    try await database.transaction { session -> Int in
                        try await Self.insert(2, on: session)
                        throw Boom(id: try await session.count("notes"))  // sees the first body's row
                    }
                },
                { try await database.transaction { try await Self.insert(3, on: $0); return try await $0.count("notes") } },
            ]
            let results = try await Self.asOneGroup(database, transactions)
            #expect(try results[0].get() == 1)
            #expect(throws: Boom(id: 2)) { try results[1].get() }  // 2 rows seen, then rolled back
            #expect(try results[2].get() == 2)  // the first body's row and its own; the second's was rolled back
            #expect(try await Self.ids(database) == [1, 3])
            let after = try #require(database.groupCommitStatistics)
            #expect(after.groups - before.groups == 1)
            #expect(after.bodies - before.bodies == 3)
        }
    }

    @Test func aFailedCommitFailsEveryCallerOfTheGroup() async throws {
        try await Self.withSQLite { database in
            // A deferred foreign key is checked by COMMIT, not by the statement.
            try await database.sql.raw("""
                CREATE TABLE children (id INTEGER PRIMARY KEY, \
                parent INTEGER REFERENCES notes (id) DEFERRABLE INITIALLY DEFERRED)
                """).run()
            let transactions: [@Sendable () async throws -> String] = [
                { try await database.transaction { try await Self.insert(1, on: $0); return "first" } },
                {
                    try await database.transaction { session in
                        try await session.raw("INSERT INTO children (id, parent) VALUES (1, 999)").run()
                        return "orphan"
                    }
                },
                { try await database.transaction { _ -> String in throw Boom(id: 3) } },
            ]
            let results = try await Self.asOneGroup(database, transactions)
            let first = try #require(results[0].failureDescription)
            #expect(first.contains("FOREIGN KEY"))
            #expect(results[1].failureDescription == first)
            #expect(throws: Boom(id: 3)) { try results[2].get() }  // its own error, not the group's
            #expect(try await database.sql.count("notes") == 0)
            #expect(try await database.sql.count("children") == 0)
            // The writer goes on with the next group.
            #expect(try await database.transaction { try await Self.insert(4, on: $0); return "later" } == "later")
            #expect(try await Self.ids(database) == [4])
        }
    }

    @Test func aTransactionInsideABodyIsASavepointOfIt() async throws {
        try await Self.withSQLite { database in
            let (nestedError, seen) = try await database.transaction { session -> (Boom?, Int) in
                try await Self.insert(1, on: session)
                var nestedError: Boom?
                do {
                    try await database.transaction { nested in
                        try await Self.insert(2, on: nested)
                        throw Boom(id: 2)
                    }
                } catch let boom as Boom {
                    nestedError = boom
                }
                let seen = try await database.transaction { nested in
                    try await Self.insert(3, on: nested)
                    return try await nested.count("notes")
                }
                return (nestedError, seen)
            }
            #expect(nestedError == Boom(id: 2))
            #expect(seen == 2)
            #expect(try await Self.ids(database) == [1, 3])
        }
    }

    @Test func aLoneTransactionIsCommittedWithoutWaiting() async throws {
        try await Self.withSQLite { database in
            let started = ContinuousClock.now
            for id in 1...5 {
                try await database.transaction { try await Self.insert(id, on: $0) }
            }
            // Each is its own group: nothing was waiting to join it, and nothing waited to be joined.
            #expect(database.groupCommitStatistics == GroupCommitStatistics(groups: 5, bodies: 5, largest: 1))
            // The groups may last an hour (`withSQLite`), but a group with nobody waiting ends at once.
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(try await Self.ids(database) == [1, 2, 3, 4, 5])
        }
    }

    @Test func groupsHoldAtMostTheirLimit() async throws {
        let folder = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(url: .sqlite(path: folder.url.appendingPathComponent("g.sqlite").path))
        configuration.sqliteGroupLimits = .init(maxBodies: 4, maxDuration: .seconds(3600))
        let database = try await Database.open(configuration)
        try await DatabaseConformanceTests.makeTable(database)
        let transactions = (1...10).map { id -> @Sendable () async throws -> Int in
            { try await database.transaction { try await Self.insert(id, on: $0); return id } }
        }
        let results = try await Self.asOneGroup(database, transactions)
        #expect(try results.map { try $0.get() } == Array(1...10))
        #expect(database.groupCommitStatistics == GroupCommitStatistics(groups: 3, bodies: 10, largest: 4))
        await database.close()
    }
}

extension Result {
    /// The error's description, or nil on success.
    var failureDescription: String? {
        guard case .failure(let error) = self else { return nil }
        return String(describing: error)
    }
}
