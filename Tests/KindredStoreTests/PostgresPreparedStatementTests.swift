import Foundation
import KindredTestSupport
import NIOConcurrencyHelpers
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

    /// Ends `session`'s backend from another connection and waits until its channel has closed
    /// (its handlers are gone once the close has run, which is when a written statement used to
    /// be dropped and its caller left waiting forever).
    static func terminate(_ session: any SQLDatabase, from database: Database) async throws {
        let pid = try await session.raw("SELECT pg_backend_pid() AS pid").first(decodingColumn: "pid", as: Int32.self)
        let ended = try await database.sql.raw("SELECT pg_terminate_backend(\(bind: try #require(pid))) AS ended")
            .first(decodingColumn: "ended", as: Bool.self)
        #expect(ended == true)
        try await Task.sleep(for: .milliseconds(300))
    }

    /// The error `body` threw, or `BoundedWait.timedOut` when it had not finished within 10 s
    /// (its task is left behind: a statement that hangs cannot be cancelled).
    static func outcome(of body: @escaping @Sendable () async throws -> Void) async -> (any Error)? {
        let first = NIOLockedValueBox(false)
        let claim = { @Sendable in first.withLockedValue { done in defer { done = true }; return !done } }
        return await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            Task {
                var failure: (any Error)?
                do { try await body() } catch { failure = error }
                if claim() { continuation.resume(returning: failure) }
            }
            Task {
                try? await Task.sleep(for: .seconds(10))
                if claim() { continuation.resume(returning: BoundedWait.timedOut) }
            }
        }
    }

    enum BoundedWait: Error { case timedOut }

    @Test(.enabled(if: hasPostgres), arguments: [
        "SELECT body FROM prep_notes WHERE id = $1",  // prepared and named
        "ROLLBACK",  // through postgres-kit, unnamed
    ])
    func statementOnASessionPostgreSQLEndedIsATypedErrorNotAHang(_ text: String) async throws {
        try await TestDatabases.with(.postgresql) { database in
            try await Self.makeTable(database)
            let failure = try await database.sql.withSession { session in
                _ = try await session.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)").all()
                try await Self.terminate(session, from: database)
                return await Self.outcome {
                    if text.contains("$1") {
                        _ = try await session.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)").all()
                    } else {
                        try await session.raw(SQLQueryString(text)).run()
                    }
                }
            }
            let error = try #require(failure as? KindredStoreError, "\(String(describing: failure))")
            guard case .connectionFailed(let why) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(why.contains("closed"))
            // The pool set the closed connection aside: the next statements run.
            for _ in 0..<4 {
                let bodies = try await database.sql.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)")
                    .all(decodingColumn: "body", as: String.self)
                #expect(bodies == ["one"])
            }
        }
    }

    @Test(.enabled(if: hasPostgres))
    func transactionWhoseSessionPostgreSQLEndsFailsAndLaterTransactionsRun() async throws {
        try await TestDatabases.with(.postgresql) { database in
            try await Self.makeTable(database)
            let failure = await Self.outcome {
                try await database.transaction { session in
                    try await session.raw("UPDATE prep_notes SET body = \(bind: "two") WHERE id = \(bind: 1)").run()
                    try await Self.terminate(session, from: database)
                    try await session.raw("UPDATE prep_notes SET body = \(bind: "three") WHERE id = \(bind: 1)").run()
                }
            }
            #expect(failure is KindredStoreError, "\(String(describing: failure))")
            // Nothing of the ended transaction committed; the next one commits.
            try await database.transaction { session in
                try await session.raw("UPDATE prep_notes SET body = \(bind: "four") WHERE id = \(bind: 1)").run()
            }
            let bodies = try await database.sql.raw("SELECT body FROM prep_notes WHERE id = \(bind: 1)")
                .all(decodingColumn: "body", as: String.self)
            #expect(bodies == ["four"])
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
