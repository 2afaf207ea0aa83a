import BillingServer
import KindredServer
import KindredServerCore
import Foundation
import KindredStore
import KindredTestSupport
import Logging
import Synchronization

/// A logger that only shows warnings and worse.
package let platformLogger: Logger = {
    var logger = Logger(label: "kindred.test.platform")
    logger.logLevel = .critical
    return logger
}()

/// Runs `body` on a fresh, migrated database of `backend`.
package func withMigratedDatabase<T>(_ backend: Backend, _ body: (Database) async throws -> T) async throws -> T {
    try await TestDatabases.with(backend) { database in
        try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
        return try await body(database)
    }
}

/// A second handle on the same database (another "process": its own pool and connections).
package func openSecondHandle(_ database: Database) async throws -> Database {
    try await Database.open(database.configuration, logger: platformLogger)
}

/// An instant from ISO 8601 text.
package func instant(_ text: String) throws -> Date {
    try Date(text, strategy: .iso8601)
}

/// Counts events from concurrent tasks.
package final class Tally: Sendable {
    package init() {}

    private let counts = Mutex<[String: Int]>([:])

    /// Adds one to `key`.
    package func add(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }

    /// The count of `key`.
    package func count(_ key: String) -> Int { counts.withLock { $0[key, default: 0] } }

    /// Every key's count.
    package var all: [String: Int] { counts.withLock { $0 } }
}

/// An error with a fixed description.
package struct TestFailure: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}
