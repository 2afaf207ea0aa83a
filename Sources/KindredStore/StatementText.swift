import NIOConcurrencyHelpers
import SQLKit

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
public final class StatementText: Sendable {
    /// The text between the placeholders.
    private let pieces: [String]
    /// Each dialect's text, by dialect name.
    private let texts = NIOLockedValueBox<[String: String]>([:])

    /// A statement from `text`, in which every `?` is a bound value (write none inside quoted
    /// literals or identifiers).
    public init(_ text: String) {
        pieces = text.split(separator: "?", omittingEmptySubsequences: false).map(String.init)
        var sqlite = pieces[0]
        for (index, piece) in pieces.enumerated().dropFirst() {
            sqlite += "?\(index)" + piece
        }
        self.sqlite = SQLiteSQL(sqlite)
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

    /// Runs `statement` and returns its rows.
    public func all(_ statement: StatementText.Bound) async throws -> [any SQLRow] {
        let rows = NIOLockedValueBox<[any SQLRow]>([])
        try await execute(sql: statement) { row in rows.withLockedValue { $0.append(row) } }
        return rows.withLockedValue { $0 }
    }
}
