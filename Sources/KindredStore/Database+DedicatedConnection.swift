// See Database.swift: AsyncKit's pools predate Sendable annotations but lock their state.
@preconcurrency import AsyncKit
import Logging
import NIOCore
import PostgresKit
import SQLKit

/// One PostgreSQL connection outside the pool, kept open by its owner: for session state that
/// must outlive a single query, such as an advisory lock held while a replica is a leader.
///
/// A pooled connection is shared and recycled, so a session lock taken on it could be released
/// (or inherited) by an unrelated request; this one belongs to its owner until `close()`.
public final class DedicatedConnection: Sendable {
    /// SQLKit over this one connection; every statement runs on the same session.
    public let sql: any SQLDatabase
    private let connection: PostgresConnection

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.sql = connection.sql(logger: logger)
    }

    /// Whether the connection has been closed (by `close()` or because the server went away).
    public var isClosed: Bool { connection.isClosed }

    /// Closes the connection; the server releases every session lock it held. Safe to call twice.
    public func close() async {
        guard !connection.isClosed else { return }
        try? await connection.close()
    }
}

extension Database {
    /// Opens a connection of its own to the same PostgreSQL database, outside the pool.
    ///
    /// - Parameter logger: receives the driver's logs for this connection.
    /// - Returns: the connection, or nil on SQLite (one file has no sessions to hold locks in).
    /// - Throws: `closed`, or `connectionFailed` when PostgreSQL cannot be reached.
    public func openDedicatedConnection(logger: Logger) async throws(KindredStoreError) -> DedicatedConnection? {
        guard !isClosed.withLockedValue({ $0 }) else { throw .closed }
        guard case .postgres(let pool) = pool else { return nil }
        do {
            let connection = try await PostgresConnection.connect(
                on: pool.eventLoopGroup.any(),
                configuration: pool.source.sqlConfiguration.coreConfiguration,
                id: Int.random(in: 1...Int.max),
                logger: logger
            ).get()
            return DedicatedConnection(connection: connection, logger: logger)
        } catch {
            throw .connectionFailed("dedicated connection: \(Self.describe(error))")
        }
    }
}
