import NIOConcurrencyHelpers
import SQLKit
import SQLiteKit

/// A statement run often, written once: its text with `?` for each bound value, turned into
/// each dialect's text (`?1, ?2, …` on SQLite, `$1, $2, …` on PostgreSQL) the first time it runs there.
///
/// A statement built from SQLKit's builders or from an interpolated `SQLQueryString` is
/// assembled and serialized again on every run; for the inserts of a sign-up, which the SQLite
/// writer runs one after another for every caller, that was about 8 % of the writer's work.
///
/// ```swift
/// static let insertPoint = StatementText("INSERT INTO points (x, y) VALUES (?, ?)")
/// try await sql.run(Self.insertPoint.binding(x, y))
/// ```
///
/// It is Kindred's one idiom for hand-written statements (docs/server.md, "Writing SQL"): a
/// domain keeps its statements as `static let`s in one place (its `…Queries.swift` or the
/// record's file), builds their text from constant strings (a record's column list is a static
/// of the record), binds every value, `LIMIT`s included, asks for the row lock with
/// `lockingRows`, and writes a text that depends on the database with `init(perDialect:)`
/// (made once per dialect from `SQLDialect+Features`) instead of splicing it at each run.
public final class StatementText: Sendable {
    /// The text between the placeholders, on SQLite.
    private let pieces: [String]
    /// The text of a dialect, with `?` placeholders; nil when it is `pieces` on every dialect.
    private let perDialect: (@Sendable (any SQLDialect) -> String)?
    /// Each dialect's text, by dialect name.
    private let texts = NIOLockedValueBox<[String: String]>([:])

    /// A statement from `text`, in which every `?` is a bound value (write none inside quoted
    /// literals or identifiers). With `lockingRows`, the text ends with the dialect's row lock
    /// clause (` FOR UPDATE` where `SQLDialect.locksSelectedRows`, nothing on SQLite), added
    /// once per dialect when its text is made: for a read whose rows the transaction then changes.
    public convenience init(_ text: String, lockingRows: Bool = false) {
        if lockingRows {
            self.init(perDialect: { text + $0.rowLockClause })
        } else {
            self.init(pieces: Self.pieces(of: text), perDialect: nil)
        }
    }

    /// A statement whose text depends on the dialect's capabilities (`SQLDialect+Features`:
    /// the row lock clause, the code-point collation, array binds), made once per dialect the
    /// first time it runs there. Every dialect's text must have the same placeholders, in the
    /// same order.
    public convenience init(perDialect text: @escaping @Sendable (any SQLDialect) -> String) {
        self.init(pieces: Self.pieces(of: text(SQLiteDialect())), perDialect: text)
    }

    private init(pieces: [String], perDialect: (@Sendable (any SQLDialect) -> String)?) {
        self.pieces = pieces
        self.perDialect = perDialect
        var sqlite = pieces[0]
        for (index, piece) in pieces.enumerated().dropFirst() {
            sqlite += "?\(index)" + piece
        }
        self.sqlite = SQLiteSQL(sqlite)
    }

    private static func pieces(of text: String) -> [String] {
        text.split(separator: "?", omittingEmptySubsequences: false).map(String.init)
    }

    /// The SQLite text when the statement runs alone (placeholders `?1, ?2, …`), with its hash:
    /// the store's SQLite connections run it as it is, without SQLKit's serializer, and find its
    /// kept statement without hashing the text again.
    let sqlite: SQLiteSQL

    /// How many values each run binds.
    public var bindCount: Int { pieces.count - 1 }

    /// The statement with `values` bound to its placeholders, in order.
    /// - Precondition: as many values as placeholders.
    public func binding(_ values: any Encodable & Sendable...) -> Bound {
        binding(values)
    }

    /// The statement with `values` bound to its placeholders, in order.
    /// - Precondition: as many values as placeholders.
    public func binding(_ values: [any Encodable & Sendable]) -> Bound {
        precondition(values.count == bindCount, "\(bindCount) placeholders, \(values.count) values")
        return Bound(statement: self, values: values)
    }

    /// The statement's text in the dialect of `serializer`, with placeholders numbered from
    /// `first`.
    fileprivate func text(for serializer: SQLSerializer, first: Int) -> String {
        let dialect = serializer.dialect
        if first == 1, let text = texts.withLockedValue({ $0[dialect.name] }) { return text }
        let pieces = perDialect.map { Self.pieces(of: $0(dialect)) } ?? pieces
        precondition(pieces.count == self.pieces.count, "every dialect's text binds \(bindCount) values")
        var writer = SQLSerializer(database: serializer.database)
        for (index, piece) in pieces.enumerated() {
            if index > 0 { dialect.bindPlaceholder(at: first + index - 1).serialize(to: &writer) }
            writer.write(piece)
        }
        if first == 1 { texts.withLockedValue { $0[dialect.name] = writer.sql } }
        return writer.sql
    }

    /// A run of the statement: its text and the values bound to it.
    public struct Bound: SQLExpression {
        let statement: StatementText
        let values: [any Encodable & Sendable]

        public func serialize(to serializer: inout SQLSerializer) {
            serializer.write(statement.text(for: serializer, first: serializer.binds.count + 1))
            serializer.binds.append(contentsOf: values)
        }
    }
}

extension SQLDatabase {
    /// Runs `statement`, ignoring any rows.
    public func run(_ statement: StatementText.Bound) async throws {
        try await execute(sql: statement) { _ in }
    }

    /// Runs `statement` and returns its first row, if any (the others are read and dropped, as
    /// SQLKit's `raw(…).first()` does: write `LIMIT 1` where more than one row may match).
    public func first(_ statement: StatementText.Bound) async throws -> (any SQLRow)? {
        let first = NIOLockedValueBox<(any SQLRow)?>(nil)
        try await execute(sql: statement) { row in first.withLockedValue { if $0 == nil { $0 = row } } }
        return first.withLockedValue { $0 }
    }

    /// Runs `statement` and returns its rows.
    public func all(_ statement: StatementText.Bound) async throws -> [any SQLRow] {
        let rows = NIOLockedValueBox<[any SQLRow]>([])
        try await execute(sql: statement) { row in rows.withLockedValue { $0.append(row) } }
        return rows.withLockedValue { $0 }
    }
}
