import PostgresNIO

/// A statement PostgresNIO runs as a named prepared statement: `PostgresConnection.execute(_:)`
/// prepares a name on a connection the first time it sees it there and afterwards only binds
/// and executes it.
///
/// PostgresNIO reads a statement's name and SQL from its type; this one type serves every SQL
/// text by reading both from a task-local value set around each run (`run(name:sql:…)`).
struct NamedPostgresStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The name and SQL text of the statement being run.
    struct Text: Sendable {
        var name: String
        var sql: String
    }

    @TaskLocal private static var text = Text(name: "", sql: "")

    /// The statement's name (from the run's task-local text).
    static var name: String { text.name }
    /// The statement's SQL text (from the run's task-local text).
    static var sql: String { text.sql }

    /// The values bound to `$1`, `$2`, …
    let bindings: PostgresBindings

    /// Returns the bound values.
    func makeBindings() throws -> PostgresBindings { bindings }

    /// Returns the row as it came.
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    /// Runs `sql` on `connection` as the prepared statement `name` with `bindings`, passing
    /// each row to `onRow`.
    static func run(
        name: String, sql: String, bindings: PostgresBindings, on connection: PostgresConnection,
        logger: Logger, _ onRow: (PostgresRow) -> Void
    ) async throws {
        try await $text.withValue(Text(name: name, sql: sql)) {
            let rows = try await connection.execute(Self(bindings: bindings), logger: logger)
            for try await row in rows { onRow(row) }
        }
    }
}
