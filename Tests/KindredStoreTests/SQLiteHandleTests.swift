import Foundation
import KindredTestSupport
import NIOCore
import SQLKit
import SQLiteNIO
import Testing

@testable import KindredStore

/// The SQLite connection layer under `Database` on SQLite: values round-trip exactly, each SQL text
/// is prepared once per connection and reused, a schema change is seen by a kept statement, and a
/// failed statement reports SQLite's code and stays usable.
@Suite struct SQLiteHandleTests {
    /// Runs `body` with a handle on a new file database, closing both afterwards.
    static func withHandle<T>(_ body: (SQLiteHandle) throws -> T) throws -> T {
        let folder = try TemporaryDirectory()
        let handle = try SQLiteHandle(path: folder.url.appendingPathComponent("handle.sqlite").path)
        defer { handle.close() }
        return try body(handle)
    }

    static func rows(_ handle: SQLiteHandle, _ sql: String, _ binds: [SQLiteData] = []) throws -> [[SQLiteData]] {
        var rows: [[SQLiteData]] = []
        try handle.run(sql, binds) { rows.append($0.values) }
        return rows
    }

    @Test func everyValueKindRoundTrips() throws {
        try Self.withHandle { handle in
            try handle.run("CREATE TABLE t (v)", []) { _ in }
            var emptyBlob = ByteBufferAllocator().buffer(capacity: 0)
            emptyBlob.clear()
            let values: [SQLiteData] = [
                .integer(Int.max), .integer(Int.min), .integer(0), .float(-2.5), .text(""), .text("héllo ✓"),
                .text("a\u{0}b"), .blob(ByteBuffer(bytes: [0, 1, 255])), .blob(emptyBlob), .null,
            ]
            for value in values { try handle.run("INSERT INTO t (v) VALUES (?)", [value]) { _ in } }
            let read = try Self.rows(handle, "SELECT v, typeof(v) AS kind, length(v) AS size FROM t ORDER BY rowid")
            #expect(read.map { $0[0] } == values)
            #expect(read.map { $0[1] } == ["integer", "integer", "integer", "real", "text", "text", "text", "blob", "blob", "null"].map { .text($0) })
            // '' and an empty blob are values of length 0, not NULL.
            #expect(read[4][2] == .integer(0))
            #expect(read[8][2] == .integer(0))
        }
    }

    @Test func aStatementIsPreparedOnceAndReused() throws {
        try Self.withHandle { handle in
            try handle.run("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)", []) { _ in }
            for id in 1...100 {
                try handle.run("INSERT INTO t (id, name) VALUES (?, ?)", [.integer(id), .text("n\(id)")]) { _ in }
            }
            #expect(handle.cachedStatementCount == 2)
            for id in [7, 42, 100] {
                #expect(try Self.rows(handle, "SELECT name FROM t WHERE id = ?", [.integer(id)]) == [[.text("n\(id)")]])
            }
            #expect(handle.cachedStatementCount == 3)
            // Bindings are cleared after each run: a run with fewer binds sees NULL, not the last value.
            #expect(try Self.rows(handle, "SELECT ?1 IS NULL", []) == [[.integer(1)]])
        }
    }

    @Test func newBoundValuesDoNotReprepareAStatement() throws {
        try Self.withHandle { handle in
            try handle.run("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)", []) { _ in }
            for id in 1...20 {
                try handle.run("INSERT INTO t (id, name) VALUES (?, ?)", [.integer(id), .text("n\(id)")]) { _ in }
            }
            // A bound LIMIT and a bound LIKE pattern are values SQLite's planner would otherwise
            // look at, re-preparing the statement whenever they change.
            let limited = "SELECT id FROM t ORDER BY id LIMIT ?"
            let like = "SELECT count(*) FROM t WHERE name LIKE ?"
            for limit in 1...10 {
                #expect(try Self.rows(handle, limited, [.integer(limit)]).count == limit)
                #expect(try Self.rows(handle, like, [.text("n\(limit)%")]) == [[.integer(limit == 1 ? 11 : limit == 2 ? 2 : 1)]])
            }
            #expect(handle.reprepareCount(of: limited) == 0)
            #expect(handle.reprepareCount(of: like) == 0)
        }
    }

    @Test func theLeastRecentlyUsedStatementIsFinalizedAtCapacity() throws {
        try Self.withHandle { handle in
            let capacity = SQLiteHandle.statementCapacity
            for n in 0..<(capacity + 10) {
                #expect(try Self.rows(handle, "SELECT \(n)") == [[.integer(n)]])
                if n == 0 || n % 50 == 0 { _ = try Self.rows(handle, "SELECT 0") }  // keeps "SELECT 0" recent
            }
            #expect(handle.cachedStatementCount == capacity)
            #expect(try Self.rows(handle, "SELECT 0") == [[.integer(0)]])
            #expect(try Self.rows(handle, "SELECT 1") == [[.integer(1)]])
            #expect(handle.cachedStatementCount == capacity)
        }
    }

    @Test func aKeptStatementSeesASchemaChange() throws {
        try Self.withHandle { handle in
            try handle.run("CREATE TABLE t (a INTEGER)", []) { _ in }
            try handle.run("INSERT INTO t (a) VALUES (1)", []) { _ in }
            var names: [String] = []
            try handle.run("SELECT * FROM t", []) { names = $0.columns.names }
            #expect(names == ["a"])
            try handle.run("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'", []) { _ in }
            var row: SQLiteResultRow?
            try handle.run("SELECT * FROM t", []) { row = $0 }
            #expect(row?.columns.names == ["a", "b"])
            #expect(row?.value("b") == .text("x"))
        }
    }

    @Test func aFailedStatementReportsSQLiteAndStaysUsable() throws {
        try Self.withHandle { handle in
            #expect(throws: SQLiteStatementError.self) { try handle.run("SELEC 1", []) { _ in } }
            do {
                try handle.run("SELEC 1", []) { _ in }
            } catch let error as SQLiteStatementError {
                #expect(error.primaryCode == 1)
                #expect(error.message.contains("syntax error"))
            }
            try handle.run("CREATE TABLE t (id INTEGER PRIMARY KEY, email TEXT UNIQUE)", []) { _ in }
            let insert = "INSERT INTO t (id, email) VALUES (?, ?)"
            try handle.run(insert, [.integer(1), .text("a@example.com")]) { _ in }
            do {
                try handle.run(insert, [.integer(2), .text("a@example.com")]) { _ in }
                Issue.record("a duplicate e-mail was accepted")
            } catch let error as SQLiteStatementError {
                #expect(error.primaryCode == 19)  // SQLITE_CONSTRAINT
                #expect(error.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
                #expect(error.message == "UNIQUE constraint failed: t.email")
            }
            try handle.run(insert, [.integer(2), .text("b@example.com")]) { _ in }
            #expect(try Self.rows(handle, "SELECT count(*) FROM t") == [[.integer(2)]])
        }
    }

    @Test func aClosedHandleRefusesWork() throws {
        let folder = try TemporaryDirectory()
        let handle = try SQLiteHandle(path: folder.url.appendingPathComponent("closed.sqlite").path)
        handle.close()
        #expect(throws: KindredStoreError.closed) { try handle.run("SELECT 1", []) { _ in } }
    }

    @Test func anUnopenableFileIsAConnectionFailure() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("missing/folder/x.sqlite").path
        #expect {
            _ = try SQLiteHandle(path: path)
        } throws: { error in
            guard case KindredStoreError.connectionFailed(let why) = error else { return false }
            return why.hasPrefix("cannot open \(path): ")
        }
    }

    @Test func rowsDecodeThroughSQLKitAsBefore() async throws {
        let folder = try TemporaryDirectory()
        let database = try await Database.open(
            DatabaseConfiguration(url: .sqlite(path: folder.url.appendingPathComponent("kit.sqlite").path))
        )
        do {
            try await database.sql.raw("CREATE TABLE t (id INTEGER, name TEXT, at REAL, data BLOB, gone TEXT)").run()
            try await database.transaction { session in
                try await session.insert(into: "t").columns("id", "name", "at", "data", "gone")
                    .values(SQLBind(7), SQLBind("seven"), SQLBind(1.5), SQLBind(Data([1, 2])), SQLLiteral.null).run()
            }
            let row = try #require(try await database.sql.raw("SELECT * FROM t").first())
            #expect(row.allColumns == ["id", "name", "at", "data", "gone"])
            #expect(try row.decode(column: "id", as: Int.self) == 7)
            #expect(try row.decode(column: "name", as: String.self) == "seven")
            #expect(try row.decode(column: "at", as: Double.self) == 1.5)
            #expect(try row.decode(column: "data", as: Data.self) == Data([1, 2]))
            #expect(try row.decodeNil(column: "gone"))
            #expect(try row.decode(column: "gone", as: String?.self) == nil)
            #expect(!row.contains(column: "missing"))
            #expect(throws: DecodingError.self) { try row.decode(column: "missing", as: Int.self) }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}
