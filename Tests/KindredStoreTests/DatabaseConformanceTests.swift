import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Connections, transactions and SQLite's per-connection settings.
@Suite struct DatabaseConformanceTests {
    struct Boom: Error, Equatable {}

    static func makeTable(_ database: Database) async throws {
        try await database.sql.create(table: "notes")
            .column("id", type: .bigint, .primaryKey(autoIncrement: false))
            .column("body", type: .text, .notNull)
            .run()
    }

    @Test(arguments: Backend.all)
    func transactionCommitsOrRollsBack(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeTable(database)
            await #expect(throws: Boom()) {
                try await database.transaction { session in
                    try await session.insert(into: "notes").columns("id", "body").values(SQLBind(1), SQLBind("lost")).run()
                    #expect(try await session.count("notes") == 1)
                    throw Boom()
                }
            }
            #expect(try await database.sql.count("notes") == 0)
            let value = try await database.transaction { session in
                try await session.insert(into: "notes").columns("id", "body").values(SQLBind(2), SQLBind("kept")).run()
                return "done"
            }
            #expect(value == "done")
            let bodies = try await database.sql.select().column("body").from("notes").all(decodingColumn: "body", as: String.self)
            #expect(bodies == ["kept"])
        }
    }

    @Test(arguments: Backend.all)
    func constraintViolationInTransactionRollsBackEarlierStatements(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeTable(database)
            try await database.sql.insert(into: "notes").columns("id", "body").values(SQLBind(1), SQLBind("first")).run()
            await #expect(throws: (any Error).self) {
                try await database.transaction { session in
                    try await session.insert(into: "notes").columns("id", "body").values(SQLBind(2), SQLBind("second")).run()
                    try await session.insert(into: "notes").columns("id", "body").values(SQLBind(1), SQLBind("dup")).run()
                }
            }
            #expect(try await database.sql.count("notes") == 1)
        }
    }

    @Test(arguments: Backend.all)
    func closedDatabaseRefusesWork(backend: Backend) async throws {
        let database = try await TestDatabases.with(backend) { $0 }
        await #expect(throws: KindredStoreError.closed) { try await database.ping() }
        await database.close()  // a second close is harmless
    }

    @Test(arguments: [DatabaseConfiguration.SQLiteSynchronous.full, .normal])
    func sqlitePragmasOnEveryConnection(synchronous: DatabaseConfiguration.SQLiteSynchronous) async throws {
        try await TestDatabases.with(.sqlite, synchronous: synchronous) { database in
            // Hold several connections at once so that more than one is checked (transactions
            // would all run on the group commit's one connection).
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await database.sql.withSession { session in
                            let mode = try await session.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
                            let sync = try await session.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self)
                            let keys = try await session.raw("PRAGMA foreign_keys").first()?.decode(column: "foreign_keys", as: Int.self)
                            let busy = try await session.raw("PRAGMA busy_timeout").first()?.decode(column: "timeout", as: Int.self)
                            #expect(mode == "wal")
                            #expect(sync == (synchronous == .full ? 2 : 1))
                            #expect(keys == 1)
                            #expect(busy == 5000)
                            let temp = try await session.raw("PRAGMA temp_store").first()?.decode(column: "temp_store", as: Int.self)
                            let cache = try await session.raw("PRAGMA cache_size").first()?.decode(column: "cache_size", as: Int.self)
                            #expect(temp == 2)  // MEMORY
                            #expect(cache == -16384)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // And the group commit's writer (where the savepoint sub-journals are written).
            let writer = try await database.transaction { session in
                (
                    try await session.raw("PRAGMA temp_store").first()?.decode(column: "temp_store", as: Int.self),
                    try await session.raw("PRAGMA cache_size").first()?.decode(column: "cache_size", as: Int.self)
                )
            }
            #expect(writer.0 == 2 && writer.1 == -16384)
        }
    }

    @Test func sqliteCreatesTheFolderAndFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nested/data.sqlite").path
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
        try await database.sql.raw("CREATE TABLE t (x INTEGER)").run()
        await database.close()
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func sqliteMemoryIsOneSharedDatabase() async throws {
        let database = try await Database.open(DatabaseConfiguration(url: .sqliteMemory))
        try await Self.makeTable(database)
        for id in 1...5 {
            try await database.sql.insert(into: "notes").columns("id", "body").values(SQLBind(id), SQLBind("n")).run()
        }
        #expect(try await database.sql.count("notes") == 5)
        await database.close()
    }

    @Test func unreachablePostgresIsAConnectionError() async throws {
        // Port 1 on loopback refuses connections.
        let url = try DatabaseURL(parsing: "postgres://kindred:secret@127.0.0.1:1/kindred")
        do {
            _ = try await Database.open(DatabaseConfiguration(url: url, maxConnections: 1))
            Issue.record("opened a database on a closed port")
        } catch {
            guard case .connectionFailed(let message) = error else {
                Issue.record("expected connectionFailed, got \(error)")
                return
            }
            #expect(!message.contains("secret"))
        }
    }

    @Test func invalidConfigurationIsRefused() async throws {
        await #expect(throws: KindredStoreError.invalidConfiguration("maxConnections must be between 1 and 64, not 0")) {
            _ = try await Database.open(DatabaseConfiguration(url: .sqliteMemory, maxConnections: 0))
        }
    }
}
