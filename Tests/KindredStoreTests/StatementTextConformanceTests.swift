@testable import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `StatementText`: the same text runs on both dialects, its placeholders numbered after any
/// bound before it, and repeated runs reuse the text.
@Suite struct StatementTextConformanceTests {
    static let insert = StatementText("INSERT INTO statement_rows (id, n, label, flag) VALUES (?, ?, ?, ?)")
    static let select = StatementText("SELECT id, n, label, flag FROM statement_rows WHERE n >= ? ORDER BY n")

    @Test(arguments: Backend.all)
    func runsOnBothDialects(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await database.sql.create(table: "statement_rows")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("n", type: .bigint, .notNull).column("label", type: .text)
                .column("flag", type: .custom(SQLRaw("BOOLEAN")))
                .run()
            for n in 0..<5 {
                try await database.sql.run(Self.insert.binding("r\(n)", Int64(n), n.isMultiple(of: 2) ? "even" : nil, n > 2))
            }
            for _ in 0..<2 {
                let rows = try await database.sql.all(Self.select.binding(Int64(2)))
                #expect(try rows.map { try $0.decode(column: "id", as: String.self) } == ["r2", "r3", "r4"])
                #expect(try rows.map { try $0.decode(column: "label", as: String?.self) } == ["even", nil, "even"])
                #expect(try rows.map { try $0.decode(column: "flag", as: Bool.self) } == [false, true, true])
            }
        }
    }

    @Test("each dialect's placeholders, numbered after the binds already written", arguments: Backend.all)
    func placeholders(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let statement = StatementText("SELECT ? AS a, ? AS b")
            #expect(statement.bindCount == 2)
            let alone = database.sql.serialize(statement.binding(1, "x"))
            let nested = database.sql.serialize(SQLList([SQLBind(0), statement.binding(1, "x")], separator: SQLRaw("; ")))
            switch backend {
            case .sqlite:
                #expect(alone.sql == "SELECT ?1 AS a, ?2 AS b")
                // The text SQLite connections run without the serializer is the serializer's.
                #expect(statement.sqlite.text == alone.sql)
                #expect(StatementText("SELECT 1").sqlite.text == "SELECT 1")
                #expect(nested.sql == "?1; SELECT ?2 AS a, ?3 AS b")
            case .postgresql:
                #expect(alone.sql == "SELECT $1 AS a, $2 AS b")
                #expect(nested.sql == "$1; SELECT $2 AS a, $3 AS b")
            }
            #expect(alone.binds.count == 2)
            #expect(nested.binds.count == 3)
        }
    }

    @Test("the row lock and a dialect's own text, made once per dialect", arguments: Backend.all)
    func perDialectText(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await database.sql.create(table: "statement_locks")
                .column("id", type: .text, .primaryKey(autoIncrement: false)).column("name", type: .text).run()
            try await database.sql.run(StatementText("INSERT INTO statement_locks (id, name) VALUES (?, ?)").binding("a", "b"))
            let locked = StatementText("SELECT id FROM statement_locks WHERE id = ?", lockingRows: true)
            let ordered = StatementText(perDialect: { "SELECT name FROM statement_locks WHERE id = ? ORDER BY name\($0.codePointCollation) LIMIT ?" })
            #expect(locked.bindCount == 1)
            #expect(ordered.bindCount == 2)
            let lockedText = database.sql.serialize(locked.binding("a")).sql
            let orderedText = database.sql.serialize(ordered.binding("a", 1)).sql
            switch backend {
            case .sqlite:
                #expect(lockedText == "SELECT id FROM statement_locks WHERE id = ?1")
                #expect(locked.sqlite.text == lockedText)
                #expect(orderedText == "SELECT name FROM statement_locks WHERE id = ?1 ORDER BY name LIMIT ?2")
                #expect(ordered.sqlite.text == orderedText)
            case .postgresql:
                #expect(lockedText == "SELECT id FROM statement_locks WHERE id = $1 FOR UPDATE")
                #expect(orderedText == "SELECT name FROM statement_locks WHERE id = $1 ORDER BY name COLLATE \"C\" LIMIT $2")
            }
            let (found, missing) = try await database.transaction { sql in
                let found = try await sql.first(locked.binding("a"))?.decode(column: "id", as: String.self)
                let missing = try await sql.first(locked.binding("z")) == nil
                return (found, missing)
            }
            #expect(found == "a")
            #expect(missing)
            #expect(try await database.sql.all(ordered.binding("a", 1)).count == 1)
            #expect(try await database.sql.all(ordered.binding("a", 0)).isEmpty)
        }
    }

    @Test("SQLCodePointCollation writes the dialect's clause", arguments: Backend.all)
    func codePointCollationExpression(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let text = database.sql.serialize(SQLQueryString("x\(SQLCodePointCollation())")).sql
            #expect(text == (backend == .sqlite ? "x" : "x COLLATE \"C\""))
        }
    }
}
