import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore

/// Opens and migrates the database named by the server options, builds the server's platform
/// (every domain's jobs registered), runs `body`, and closes the database.
func withPlatform<T>(_ options: ServerOptions, _ body: (Platform) async throws -> T) async throws -> T {
    try await options.withMigratedDatabase { database, settings, logger in
        let platform = try ServerPlatform.make(settings.server, database: database, clock: SystemClock(), logger: logger)
        return try await body(platform)
    }
}
