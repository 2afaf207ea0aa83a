// See Database.swift: AsyncKit's pools predate Sendable annotations but lock their state.
@preconcurrency import AsyncKit
import Logging
import NIOCore
import PostgresKit
import SQLKit

/// SQLKit over PostgreSQL that runs data statements as named prepared statements: each SQL
/// text (with its bind types) is parsed and planned once per connection instead of on every
/// run, which is where PostgreSQL spent most of a short statement's time.
///
/// Statements starting with `SELECT`, `INSERT`, `UPDATE`, `DELETE` or `WITH` whose binds are
/// all PostgresNIO-encodable values (or nil) are prepared; everything else (transaction control,
/// savepoints, DDL, other bind types, and texts beyond `PostgresStatementNames.capacity`) runs
/// through postgres-kit as an unnamed statement, as before. Rows decode exactly as postgres-kit
/// decodes them.
///
/// A preparation that fails, or a statement whose result columns a schema change altered
/// (PostgreSQL's "cached plan must not change result type"), retires its name: the next run
/// prepares it afresh. A statement run outside a session is retried once at once; inside a
/// session (a transaction) the error is thrown unchanged, since the transaction is aborted.
///
/// No statement is sent on a connection whose channel has closed: PostgresNIO writes a statement
/// to its channel without a write promise, and once a closed channel's handlers are gone the
/// write is dropped and the statement's caller waits forever (a transaction whose session
/// PostgreSQL terminated hung a shutdown that way). A pinned session that closed throws
/// `KindredStoreError.connectionFailed`; a closed pooled connection is handed back and another
/// taken, since nothing ran on it.
struct PreparingPostgresDatabase: SQLDatabase {
    /// Where statements run.
    enum Connections: Sendable {
        /// Each statement on a connection of the pool.
        case pool(EventLoopGroupConnectionPool<PostgresConnectionSource>)
        /// Every statement on one pinned connection.
        case session(PostgresConnection)
    }

    let connections: Connections
    let names: PostgresStatementNames
    let logger: Logger
    /// postgres-kit's SQLKit database over the same connections, for the statements not prepared.
    private let unnamed: any SQLDatabase

    /// SQLKit over the pool: each statement takes a pooled connection.
    init(pool: EventLoopGroupConnectionPool<PostgresConnectionSource>, names: PostgresStatementNames, logger: Logger) {
        self.connections = .pool(pool)
        self.names = names
        self.logger = logger
        self.unnamed = pool.database(logger: logger).sql()
    }

    /// SQLKit over one pinned connection.
    init(session connection: PostgresConnection, names: PostgresStatementNames, logger: Logger) {
        self.connections = .session(connection)
        self.names = names
        self.logger = logger
        self.unnamed = connection.sql()
    }

    var eventLoop: any EventLoop {
        switch connections {
        case .pool(let pool): pool.eventLoopGroup.any()
        case .session(let connection): connection.eventLoop
        }
    }

    var dialect: any SQLDialect { unnamed.dialect }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        guard Self.isPreparable(sql), let (bindings, types) = Self.bindings(binds),
            case let key = types + "\n" + sql, let name = names.name(for: key)
        else {
            return try await executeUnnamed(query, onRow)
        }
        logger.debug("Executing query", metadata: ["sql": .string(sql), "statement": .string(name)])
        switch connections {
        case .session(let connection):
            try await run(name: name, key: key, sql: sql, bindings: bindings, on: connection, onRow)
        case .pool(let pool):
            do {
                try await withPooledConnection(pool) { connection in
                    try await run(name: name, key: key, sql: sql, bindings: bindings, on: connection, onRow)
                }
            } catch let error as PSQLError where Self.retiresName(error) {
                // Autocommit: nothing ran, so the statement is simply prepared again.
                guard let fresh = names.name(for: key) else { return try await executeUnnamed(query, onRow) }
                try await withPooledConnection(pool) { connection in
                    try await run(name: fresh, key: key, sql: sql, bindings: bindings, on: connection, onRow)
                }
            }
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        switch connections {
        case .session:
            return try await closure(self)
        case .pool(let pool):
            let connection = try await openPooledConnection(pool)
            defer { pool.releaseConnection(connection, logger: logger) }
            return try await closure(Self(session: connection, names: names, logger: logger))
        }
    }

    /// Runs a statement that is not prepared through postgres-kit, on an open connection.
    private func executeUnnamed(
        _ query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) async throws {
        switch connections {
        case .session(let connection):
            try Self.ensureOpen(connection)
            try await unnamed.execute(sql: query, onRow)
        case .pool(let pool):
            try await withPooledConnection(pool) { connection in
                try await connection.sql().execute(sql: query, onRow)
            }
        }
    }

    /// Runs `body` with an open pooled connection, released afterwards.
    private func withPooledConnection(
        _ pool: EventLoopGroupConnectionPool<PostgresConnectionSource>,
        _ body: (PostgresConnection) async throws -> Void
    ) async throws {
        let connection = try await openPooledConnection(pool)
        defer { pool.releaseConnection(connection, logger: logger) }
        try await body(connection)
    }

    /// A pooled connection whose channel is open. One that closed after the pool checked it goes
    /// back (the pool discards closed connections) and another is taken.
    private func openPooledConnection(
        _ pool: EventLoopGroupConnectionPool<PostgresConnectionSource>
    ) async throws -> PostgresConnection {
        var attempts = 0
        while true {
            let connection = try await pool.requestConnection(logger: logger).get()
            guard connection.isClosed else { return connection }
            pool.releaseConnection(connection, logger: logger)
            attempts += 1
            if attempts == Self.closedConnectionAttempts { try Self.ensureOpen(connection) }
        }
    }

    /// How many closed pooled connections one statement sets aside before it fails.
    static let closedConnectionAttempts = 3

    /// Throws when `connection`'s channel has closed (see the type's documentation).
    static func ensureOpen(_ connection: PostgresConnection) throws(KindredStoreError) {
        guard connection.isClosed else { return }
        throw .connectionFailed("the PostgreSQL connection closed (the server ended its session)")
    }

    /// Runs the named statement, retiring its name when PostgreSQL refused to prepare or plan it.
    private func run(
        name: String, key: String, sql: String, bindings: PostgresBindings, on connection: PostgresConnection,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) async throws {
        try Self.ensureOpen(connection)
        do {
            try await NamedPostgresStatement.run(
                name: name, sql: sql, bindings: bindings, on: connection, logger: logger
            ) { onRow($0.sql()) }
        } catch let error as PSQLError where Self.retiresName(error) {
            names.retire(name, for: key)
            throw error
        }
    }
}

extension PreparingPostgresDatabase {
    /// Whether `sql` is a data statement worth preparing (not transaction control, savepoints or DDL).
    static func isPreparable(_ sql: String) -> Bool {
        let start = sql.drop { $0.isWhitespace }
        let keyword = start.prefix { $0.isLetter }.uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains(keyword)
    }

    /// The binds as PostgresNIO bindings, and their types as text (part of the statement's key:
    /// PostgreSQL fixes a prepared statement's parameter types when it is prepared).
    /// - Returns: nil when a bind is not a PostgresNIO-encodable value or nil.
    static func bindings(_ binds: [any Encodable & Sendable]) -> (PostgresBindings, String)? {
        var bindings = PostgresBindings(capacity: binds.count)
        var types = ""
        for bind in binds {
            guard append(bind, to: &bindings, types: &types) else { return nil }
        }
        return (bindings, types)
    }

    private static func append<Value: Encodable>(_ value: Value, to bindings: inout PostgresBindings, types: inout String) -> Bool {
        if let optional = value as? any OptionalBind, optional.isNone {
            bindings.appendNull()
            types += "0,"
            return true
        }
        guard let value = value as? any PostgresThrowingDynamicTypeEncodable, (try? bindings.append(value, context: .default)) != nil
        else { return false }
        types += "\(value.psqlType.rawValue),"
        return true
    }

    /// Whether an error means the statement's name must not be used again: PostgreSQL refused to
    /// prepare it (syntax and name errors, class 42; an aborted transaction, 25P02; an unknown
    /// statement, 26000) or its result changed under it (0A000). PostgresNIO keeps a failed
    /// preparation's error for the name on that connection.
    static func retiresName(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("42") || ["25P02", "26000", "0A000"].contains(state)
    }
}

/// An optional bind, told apart from a value when it is nil (a nil never casts to an encodable type).
private protocol OptionalBind {
    var isNone: Bool { get }
}

extension Optional: OptionalBind {
    var isNone: Bool { self == nil }
}
