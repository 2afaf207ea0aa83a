import Logging
import NIOSSL
import PostgresKit

extension Database {
    /// Whether NOTIFY works across processes: true on PostgreSQL.
    public var supportsNotifications: Bool {
        if case .postgres = configuration.url { return true }
        return false
    }

    /// Opens a dedicated PostgreSQL connection (outside the pool, so it never carries other
    /// queries), runs `LISTEN channel` on it and hands `body` each notification's payload.
    ///
    /// Returns when the task is cancelled, or throws when the connection fails; the caller reconnects.
    /// - Parameters:
    ///   - channel: the NOTIFY channel (a plain identifier).
    ///   - logger: the driver's logger.
    ///   - onListening: called once LISTEN is in effect (notifications sent before it are not seen).
    ///   - body: consumes one payload (called in order, one at a time).
    /// - Throws: `invalidConfiguration` on SQLite; `connectionFailed` when connecting fails; what
    ///   the notification stream or `body` throws.
    public func listen(
        channel: String, logger: Logger,
        onListening: @Sendable () async -> Void,
        _ body: (String) async -> Void
    ) async throws {
        guard case .postgres(let url) = configuration.url else {
            throw KindredStoreError.invalidConfiguration("LISTEN needs PostgreSQL")
        }
        let tls: PostgresConnection.Configuration.TLS
        switch url.sslMode {
        case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case "prefer": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: tls = .disable
        }
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: .init(
                    host: url.host, port: url.port, username: url.username, password: url.password,
                    database: url.database, tls: tls
                ),
                id: 1, logger: logger
            )
        } catch {
            throw KindredStoreError.connectionFailed("LISTEN connection to \(configuration.url): \(Self.describe(error))")
        }
        do {
            try await connection.listen(on: channel) { notifications in
                await onListening()
                for try await notification in notifications {
                    await body(notification.payload)
                }
            }
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
