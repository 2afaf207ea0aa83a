// AsyncKit's connection pools predate Sendable annotations; they guard their state with a lock
// and confine each per-loop pool to its event loop, so sharing them across tasks is safe
// (postgres-kit imports AsyncKit the same way).
@preconcurrency import AsyncKit
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresKit
import SQLKit
import SQLiteKit

/// An open database: the SQLKit handle, and the connection pool, event loops and (for SQLite)
/// the blocking-I/O thread pool behind it. Close it with `close()`; it owns all of them.
public final class Database: Sendable {
    /// The configuration it was opened with.
    public let configuration: DatabaseConfiguration
    /// The SQLKit database every query goes through. Consecutive queries may run on different
    /// connections; use `transaction(_:)` for statements that belong together.
    public let sql: any SQLDatabase

    let pool: Pool
    private let eventLoopGroup: MultiThreadedEventLoopGroup
    let isClosed = NIOLockedValueBox(false)

    enum Pool: Sendable {
        /// The readers, the writer and the group commit every SQLite transaction goes through.
        case sqlite(SQLiteStore)
        case postgres(EventLoopGroupConnectionPool<PostgresConnectionSource>)
    }

    private init(
        configuration: DatabaseConfiguration, sql: any SQLDatabase, pool: Pool,
        eventLoopGroup: MultiThreadedEventLoopGroup
    ) {
        self.configuration = configuration
        self.sql = sql
        self.pool = pool
        self.eventLoopGroup = eventLoopGroup
    }

    /// Opens the database and checks that it answers a query.
    ///
    /// For an SQLite file, the folder holding it is created when missing.
    /// - Parameters:
    ///   - configuration: where the data is and how to connect.
    ///   - logger: receives the drivers' logs (queries at debug level, never bound values).
    /// - Returns: the open database.
    /// - Throws: `invalidConfiguration`, `connectionFailed`.
    public static func open(
        _ configuration: DatabaseConfiguration,
        logger: Logger = Logger(label: "kindred.store")
    ) async throws(KindredStoreError) -> Database {
        try configuration.validate()
        // One event loop: SQLite's work runs on the thread pool, PostgreSQL's I/O is light.
        let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let database: Database
        switch configuration.url {
        case .sqlite, .sqliteMemory:
            let storage: SQLiteConnection.Storage
            if case .sqlite(let path) = configuration.url {
                do {
                    try createParentDirectory(of: path)
                } catch {
                    try? await eventLoopGroup.shutdownGracefully()
                    throw error
                }
                storage = .file(path: path)
            } else {
                storage = .memory  // one connection: each in-memory connection is its own database
            }
            let store: SQLiteStore
            do {
                store = try await SQLiteStore.open(
                    configuration, storage: storage, eventLoop: eventLoopGroup.any(), logger: logger
                )
            } catch {
                try? await eventLoopGroup.shutdownGracefully()
                throw .connectionFailed("\(configuration.url) could not be opened: \(error)")
            }
            database = Database(
                configuration: configuration,
                sql: SQLitePoolDatabase(pool: store.readers, logger: logger, version: store.readers.version),
                pool: .sqlite(store), eventLoopGroup: eventLoopGroup
            )
        case .postgres(let url):
            let tls: PostgresConnection.Configuration.TLS
            do {
                switch url.sslMode {
                case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case "prefer": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                default: tls = .disable
                }
            } catch {
                try? await eventLoopGroup.shutdownGracefully()
                throw .connectionFailed("could not set up TLS: \(error)")
            }
            let source = PostgresConnectionSource(
                sqlConfiguration: SQLPostgresConfiguration(
                    hostname: url.host, port: url.port, username: url.username,
                    password: url.password, database: url.database, tls: tls
                )
            )
            let pool = EventLoopGroupConnectionPool(
                source: source, maxConnectionsPerEventLoop: configuration.maxConnections,
                // AsyncKit's 10 s default failed bursts of transactions on a busy 2-core machine;
                // a caller waits longer for a pooled connection rather than failing.
                requestTimeout: .seconds(30), pruneInterval: .seconds(60), logger: logger, on: eventLoopGroup
            )
            database = Database(
                configuration: configuration,
                sql: PreparingPostgresDatabase(pool: pool, names: PostgresStatementNames(), logger: logger),
                pool: .postgres(pool), eventLoopGroup: eventLoopGroup
            )
        }
        do {
            try await database.ping()
        } catch {
            await database.close()
            throw .connectionFailed("\(configuration.url) did not answer: \(error)")
        }
        return database
    }

    /// Runs `SELECT 1`, to tell whether the database is reachable.
    /// - Throws: `closed`, or `queryFailed` with the driver's reason.
    public func ping() async throws(KindredStoreError) {
        guard !isClosed.withLockedValue({ $0 }) else { throw .closed }
        do {
            try await sql.raw("SELECT 1").run()
        } catch {
            throw .queryFailed(Self.describe(error))
        }
    }

    /// The statement that opens a write transaction. SQLite takes the write lock up front
    /// (`IMMEDIATE`), so two writers queue on the busy timeout instead of failing on upgrade.
    var beginStatement: String {
        switch pool {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN"
        }
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled
    /// back when it throws (the error is rethrown unchanged).
    ///
    /// On SQLite, concurrent transactions are committed in groups (`SQLiteGroupCommit`): each
    /// body runs in its own savepoint of a shared `BEGIN IMMEDIATE … COMMIT`, in the writer's
    /// task, and returns only after that commit; a transaction begun inside a body becomes a
    /// savepoint of it. On PostgreSQL each transaction has its own connection and commit.
    /// - Parameter body: the statements, run on the pinned session it is given.
    /// - Returns: what `body` returns.
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        guard !isClosed.withLockedValue({ $0 }) else { throw KindredStoreError.closed }
        switch pool {
        case .sqlite(let store):
            return try await store.groupCommit.transaction(body)
        case .postgres:
            let begin = beginStatement
            return try await sql.withSession { session in
                try await Self.transaction(on: session, begin: begin, body)
            }
        }
    }

    /// How SQLite's group commit has grouped the transactions so far (nil on PostgreSQL).
    var groupCommitStatistics: GroupCommitStatistics? {
        guard case .sqlite(let store) = pool else { return nil }
        return store.groupCommit.committed
    }

    /// The checkpoints of a file SQLite database's log so far (nil otherwise).
    var checkpointStatistics: SQLiteCheckpointer.Statistics? {
        guard case .sqlite(let store) = pool else { return nil }
        return store.checkpointer?.statistics
    }

    /// SQLite transactions waiting for the group commit's writer (0 on PostgreSQL).
    var queuedTransactions: Int {
        guard case .sqlite(let store) = pool else { return 0 }
        return store.groupCommit.queued
    }

    /// Runs `body` in one transaction on `session`, which must be one pinned connection.
    static func transaction<T: Sendable>(
        on session: any SQLDatabase, begin: String,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await session.raw(SQLQueryString(begin)).run()
        let result: T
        do {
            result = try await body(session)
        } catch {
            try? await session.raw("ROLLBACK").run()
            throw error
        }
        try await session.raw("COMMIT").run()
        return result
    }

    /// Closes every connection, then stops the thread pool and the event loop. Safe to call twice.
    public func close() async {
        let wasClosed = isClosed.withLockedValue { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        switch pool {
        case .sqlite(let store): await store.close()
        case .postgres(let pool): try? await pool.shutdownAsync()
        }
        try? await eventLoopGroup.shutdownGracefully()
    }

    /// A driver error as one line without bound values (drivers do not put binds in messages).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            return error.serverInfo?[.message] ?? "PostgreSQL error \(error.code)"
        }
        return String(describing: error)
    }

    private static func createParentDirectory(of path: String) throws(KindredStoreError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .connectionFailed("cannot create the folder \(folder.path): \(error.localizedDescription)")
        }
    }
}
