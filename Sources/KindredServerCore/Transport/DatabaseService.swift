import KindredStore
import ServiceLifecycle

/// Keeps the database open while the server runs and closes it on graceful shutdown.
///
/// Hummingbird runs its own services before the HTTP server and shuts them down after it, so
/// in-flight requests finish before the connections close.
package struct DatabaseService: Service {
    package let database: Database

    package init(database: Database) {
        self.database = database
    }

    package func run() async throws {
        // Sleeps until shutdown; cancellation (a failed sibling service) ends it the same way.
        try? await gracefulShutdown()
        await database.close()
    }
}
