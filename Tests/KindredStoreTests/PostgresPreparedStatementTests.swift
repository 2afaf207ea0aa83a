import Foundation
import KindredTestSupport
import PostgresKit
import SQLKit
import Testing

@testable import KindredStore

/// PostgreSQL's named prepared statements (`PreparingPostgresDatabase`): prepared once per
/// connection, prepared again after a failed preparation or a changed result, and the texts
/// and binds that are (and are not) prepared.
@Suite struct PostgresPreparedStatementTests {
    static var hasPostgres: Bool { TestDatabases.postgresURL != nil || TestDatabases.isCI }

    static func makeTable(_ database: Database) async throws {
        try await database.sql.raw("CREATE TABLE prep_notes (id BIGINT PRIMARY KEY, body TEXT NOT NULL)").run()
        try await database.sql.raw("INSERT INTO prep_notes (id, body) VALUES (\(bind: 1), \(bind: "one"))").run()
    }

    /// The named statements prepared on `session` for `sql`, with how often each ran.
    static func prepared(_ sql: String, on session: any SQLDatabase) async throws -> [Int] {
        try await session.raw("""
            SELECT generic_plans + custom_plans AS runs FROM pg_prepared_statements
                WHERE statement = \(bind: sql) AND name LIKE 'kindred\\_%'
            """).all(decodingColumn: "runs", as: Int.self)
    }

    @Test(.enabled(if: hasPostgres))
    func statementRunTwiceIsPreparedOnceOnItsConnection() async throws {
        try await TestDatabases.with(.postgresql) { database in
            try await Self.makeTable(database)
            let runs = try await database.sql.withSession { session in
                for _ in 0..<2 {
                    let bodies = try await session.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)")
                        .all(decodingColumn: "body", as: String.self)
                    #expect(bodies == ["one"])
                }
                return try await Self.prepared("SELECT body FROM prep_notes WHERE id = $1", on: session)
            }
            #expect(runs == [2])
        }
    }

    @Test(.enabled(if: hasPostgres))
    func transactionControlAndDDLAreNotPrepared() async throws {
        try await TestDatabases.with(.postgresql) { database in
            try await Self.makeTable(database)
            let names = try await database.sql.withSession { session in
                try await session.raw("BEGIN").run()
                try await session.raw("SAVEPOINT s").run()
                try await session.raw("CREATE INDEX prep_notes_body ON prep_notes (body)").run()
                try await session.raw("RELEASE SAVEPOINT s").run()
                try await session.raw("COMMIT").run()
                return try await session.raw("""
                    SELECT statement FROM pg_prepared_statements
                        WHERE statement NOT LIKE 'SELECT %' AND statement NOT LIKE 'INSERT %' ORDER BY statement
                    """).all(decodingColumn: "statement", as: String.self)
            }
            // Only data statements (this connection's earlier SELECTs and INSERTs) were prepared.
            #expect(names == [])
        }
    }

    @Test(.enabled(if: hasPostgres))
    func failedPreparationIsPreparedAgainOnTheNextRun() async throws {
        try await TestDatabases.with(.postgresql) { database in
            let bodies = try await database.sql.withSession { session in
                let query = "SELECT body FROM prep_notes WHERE id = $1"
                await #expect(throws: PSQLError.self) {
                    try await session.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)").run()
                }
                try await Self.makeTable(database)
                let bodies = try await session.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)")
                    .all(decodingColumn: "body", as: String.self)
                #expect(try await Self.prepared(query, on: session) == [1])
                return bodies
            }
            #expect(bodies == ["one"])
        }
    }

    @Test(.enabled(if: hasPostgres))
    func preparationInAnAbortedTransactionDoesNotPoisonTheStatement() async throws {
        try await TestDatabases.with(.postgresql) { database in
            try await Self.makeTable(database)
            let bodies = try await database.sql.withSession { session in
                try await session.raw("BEGIN").run()
                await #expect(throws: PSQLError.self) { try await session.raw("SELECT 1/0").run() }
                await #expect(throws: PSQLError.self) {
                    try await session.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)").run()
                }
                try await session.raw("ROLLBACK").run()
                return try await session.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)")
                    .all(decodingColumn: "body", as: String.self)
            }
            #expect(bodies == ["one"])
        }
    }

    @Test(.enabled(if: hasPostgres))
    func changedResultTypeIsATypedErrorInASessionAndRetriedOutsideOne() async throws {
        try await TestDatabases.with(.postgresql) { database in
            try await Self.makeTable(database)
            let state = try await database.sql.withSession { session in
                _ = try await session.raw("SELECT * FROM prep_notes WHERE id = \(bind: 1)").all()
                try await session.raw("ALTER TABLE prep_notes ADD COLUMN extra TEXT").run()
                var state: String?
                do {
                    _ = try await session.raw("SELECT * FROM prep_notes WHERE id = \(bind: 1)").all()
                } catch let error as PSQLError {
                    state = error.serverInfo?[.sqlState]
                }
                // The next run prepares the text again and sees the new column.
                let row = try await session.raw("SELECT * FROM prep_notes WHERE id = \(bind: 1)").first()
                #expect(row?.allColumns == ["id", "body", "extra"])
                return state
            }
            #expect(state == "0A000")
            // Outside a session the pool's connections may hold the old plan; the run is retried.
            _ = try await database.sql.raw("SELECT * FROM prep_notes WHERE id = \(bind: 1)").all()
            try await database.sql.raw("ALTER TABLE prep_notes ADD COLUMN more TEXT").run()
            let row = try await database.sql.raw("SELECT * FROM prep_notes WHERE id = \(bind: 1)").first()
            #expect(row?.allColumns == ["id", "body", "extra", "more"])
        }
    }

    @Test func onlyDataStatementsArePreparable() {
        #expect(PreparingPostgresDatabase.isPreparable("SELECT 1"))
        #expect(PreparingPostgresDatabase.isPreparable("  with x AS (SELECT 1) SELECT * FROM x"))
        #expect(PreparingPostgresDatabase.isPreparable("INSERT INTO t VALUES ($1)"))
        #expect(PreparingPostgresDatabase.isPreparable("UPDATE t SET a = $1"))
        #expect(PreparingPostgresDatabase.isPreparable("DELETE FROM t"))
        for text in ["BEGIN", "COMMIT", "ROLLBACK TO SAVEPOINT s", "SAVEPOINT s", "CREATE TABLE t (a INT)", "SELECTX", ""] {
            #expect(!PreparingPostgresDatabase.isPreparable(text), "\(text)")
        }
    }

    @Test func bindTypesArePartOfTheKey() throws {
        let binds: [any Encodable & Sendable] = ["a", 1, Int64(2), true, 1.5, Data([1]), Optional<String>.none, Optional<Int64>(3)]
        for (bind, type) in zip(binds, ["25,", "20,", "20,", "16,", "701,", "17,", "0,", "20,"]) {
            #expect(PreparingPostgresDatabase.bindings([bind])?.1 == type, "\(bind)")
        }
        let (bindings, types) = try #require(PreparingPostgresDatabase.bindings(binds))
        #expect(bindings.count == 8)
        #expect(types == "25,20,20,16,701,17,0,20,")
        struct Custom: Encodable, Sendable { var a = 1 }
        #expect(PreparingPostgresDatabase.bindings([Custom()]) == nil)
    }

    @Test func namesAreCappedAndRetiredNamesAreNotReused() {
        let names = PostgresStatementNames(capacity: 2)
        #expect(names.name(for: "a") == "kindred_1")
        #expect(names.name(for: "a") == "kindred_1")
        names.retire("kindred_1", for: "a")
        #expect(names.name(for: "a") == "kindred_2")
        #expect(names.name(for: "b") == nil)
        #expect(names.issued == 2)
    }
}
