import Foundation
import KindredServer
import KindredStore
import KindredTestSupport
import Logging
import Synchronization

/// A logger that only shows warnings and worse.
let platformLogger: Logger = {
    var logger = Logger(label: "kindred.test.platform")
    logger.logLevel = .critical
    return logger
}()

/// Runs `body` on a fresh, migrated database of `backend`.
func withMigratedDatabase<T>(_ backend: Backend, _ body: (Database) async throws -> T) async throws -> T {
    try await TestDatabases.with(backend) { database in
        try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
        return try await body(database)
    }
}

/// A second handle on the same database (another "process": its own pool and connections).
func openSecondHandle(_ database: Database) async throws -> Database {
    try await Database.open(database.configuration, logger: platformLogger)
}

/// An instant from ISO 8601 text.
func instant(_ text: String) throws -> Date {
    try Date(text, strategy: .iso8601)
}

/// Counts events from concurrent tasks.
final class Tally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Adds one to `key`.
    func add(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }

    /// The count of `key`.
    func count(_ key: String) -> Int { counts.withLock { $0[key, default: 0] } }

    /// Every key's count.
    var all: [String: Int] { counts.withLock { $0 } }
}

/// An error with a fixed description.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
}
