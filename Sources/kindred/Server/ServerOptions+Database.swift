import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore
import Logging

extension ServerOptions {
    /// Resolves the settings, opens the database they name, applies pending migrations, runs
    /// `body` with the database, the settings and the logger, and closes the database whether
    /// `body` returns or throws. Every operator command on the server's database goes through it.
    func withMigratedDatabase<T>(
        _ body: (Database, ServerSettings, Logger) async throws -> T
    ) async throws -> T {
        let settings = try await resolve()
        let logger = bootstrapLogging(level: settings.logLevel)
        let database = try await Database.open(settings.server.database, logger: logger)
        do {
            try await Migrator(ServerMigrations.all).migrate(database, logger: logger)
            let result = try await body(database, settings, logger)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}
