import Foundation
import KindredServer
import KindredStore

/// Opens and migrates the database named by the server options, builds the server's platform
/// (every domain's jobs registered), runs `body`, and closes the database.
func withPlatform<T>(_ options: ServerOptions, _ body: (Platform) async throws -> T) async throws -> T {
    try await options.withMigratedDatabase { database, settings, logger in
        let platform = try Platform.server(
            database: database, clock: SystemClock(), logger: logger, settings: settings.server.platform,
            realtime: settings.server.realtime, closer: settings.server.closer,
            closerEntitlements: BillingCloserEntitlements(
                Entitlements(database: database, clock: SystemClock(), settings: settings.server.billing)
            ),
            admin: settings.server.admin
        )
        return try await body(platform)
    }
}
