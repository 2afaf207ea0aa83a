import Logging
import NIOCore
import SQLKit
import SQLiteKit

/// SQLKit's view of an SQLite connection pool: each statement borrows a connection for itself
/// and runs on the caller's thread; `withSession` pins one connection for a sequence of
/// statements, run on the pool's threads.
struct SQLitePoolDatabase: SQLDatabase {
    let pool: SQLiteConnectionPool
    let logger: Logger
    let version: (any SQLDatabaseReportedVersion)?

    var eventLoop: any EventLoop { pool.eventLoop }
    var dialect: any SQLDialect { SQLiteDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await pool.withConnection { try await $0.sql.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await pool.withConnection { try await closure($0.sessionSQL) }
    }
}
