// AsyncKit's connection pools predate Sendable annotations; they guard their state with a lock
// and confine each per-loop pool to its event loop, so sharing them across tasks is safe
// (postgres-kit imports AsyncKit the same way).
@preconcurrency import AsyncKit
import Logging
import NIOCore
import NIOPosix
import SQLiteNIO

/// Opens SQLite connections for the pool and applies Kindred's pragmas to each one before it
/// is handed out, so no connection ever runs without WAL, the sync mode or foreign keys.
struct SQLitePragmaSource: ConnectionPoolSource, Sendable {
    let storage: SQLiteConnection.Storage
    let threadPool: NIOThreadPool
    let pragmas: [String]

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        SQLiteConnection.open(storage: storage, threadPool: threadPool, logger: logger, on: eventLoop)
            .flatMap { connection in
                var ready = eventLoop.makeSucceededVoidFuture()
                for pragma in pragmas {
                    ready = ready.flatMap { connection.query(pragma, []).map { _ in } }
                }
                return ready.map { connection }.flatMapError { error in
                    connection.close().flatMapThrowing { throw error }
                }
            }
    }
}

/// An `SQLiteDatabase` over a connection pool: each query borrows a connection, and
/// `withConnection` pins one connection for a session (SQLKit's `withSession`).
struct PooledSQLiteDatabase: SQLiteDatabase {
    let pool: EventLoopGroupConnectionPool<SQLitePragmaSource>
    let logger: Logger

    var eventLoop: any EventLoop { pool.eventLoopGroup.any() }

    func query(
        _ query: String,
        _ binds: [SQLiteData],
        logger: Logger,
        _ onRow: @escaping @Sendable (SQLiteRow) -> Void
    ) -> EventLoopFuture<Void> {
        pool.withConnection(logger: logger) { $0.query(query, binds, logger: logger, onRow) }
    }

    func withConnection<T>(
        _ closure: @escaping @Sendable (SQLiteConnection) -> EventLoopFuture<T>
    ) -> EventLoopFuture<T> {
        pool.withConnection(logger: logger, closure)
    }
}
