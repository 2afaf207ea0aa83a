import Foundation
import KindredServer
import KindredStore

/// Opens and migrates the database named by the server options, builds the server's platform
/// (every domain's jobs registered), runs `body`, and closes the database.
func withPlatform<T>(_ options: ServerOptions, _ body: (Platform) async throws -> T) async throws -> T {
    let settings = try await options.resolve()
    let logger = options.bootstrapLogging(level: settings.logLevel)
    let database = try await Database.open(settings.server.database, logger: logger)
    do {
        try await Migrator(ServerMigrations.all).migrate(database, logger: logger)
        let platform = try Platform.server(
            database: database, clock: SystemClock(), logger: logger, settings: settings.server.platform,
            realtime: settings.server.realtime, closer: settings.server.closer,
            closerEntitlements: BillingCloserEntitlements(
                Entitlements(database: database, clock: SystemClock(), settings: settings.server.billing)
            ),
            admin: settings.server.admin
        )
        let result = try await body(platform)
        await database.close()
        return result
    } catch {
        await database.close()
        throw error
    }
}
