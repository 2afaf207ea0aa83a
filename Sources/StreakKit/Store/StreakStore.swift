import Foundation
import GRDB

/// The device's StreakSync store: results, the achievements' progress and celebrations, the
/// settings, and the offline queue of what waits for the server, in one GRDB (SQLite) database
/// (`<profile>/streaksync.sqlite`; docs/streaksync-device.md, "The store").
///
/// Streaks are derived from the stored results (`StreakCalculator` is the reference), so they can
/// never disagree with the history. Recording a result queues it (and its day's score) for upload in
/// the same transaction, so the queue survives a crash or a restart and is drained in order.
///
/// A value over a thread-safe GRDB connection (a `DatabasePool` in WAL mode for a file): copies
/// share it, and any thread or task may use it.
public struct StreakStore: Sendable {
    /// The database's file name in a profile folder.
    public static let fileName = "streaksync.sqlite"

    /// The database file, or nil for an in-memory store.
    public let path: String?
    /// The games results are checked against.
    public let catalog: GameCatalog
    let database: any DatabaseWriter

    /// Opens (creating and migrating) the store at `path`.
    /// - Parameters:
    ///   - path: the database file; its folder must exist.
    ///   - catalog: the games results are checked against.
    /// - Throws: `StreakStoreError.open` when the file cannot be opened or migrated.
    public init(path: String, catalog: GameCatalog = GameCatalog()) throws(StreakStoreError) {
        // Two processes opening a new file at once race to switch it to WAL; SQLite answers the
        // loser SQLITE_BUSY without waiting, so opening is retried for up to two seconds.
        var pool: DatabasePool?
        var attempts = 0
        while pool == nil {
            do {
                pool = try DatabasePool(path: path, configuration: Self.configuration())
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempts < 100 {
                attempts += 1
                Thread.sleep(forTimeInterval: 0.02)
            } catch {
                throw .open(path: path, reason: "\(error)")
            }
        }
        guard let pool else { throw .open(path: path, reason: "the database could not be opened") }
        try self.init(database: pool, path: path, catalog: catalog)
    }

    /// Opens the store of a profile folder (`<folder>/streaksync.sqlite`), creating the folder.
    /// - Throws: `StreakStoreError.open`.
    public static func profile(at folder: URL, catalog: GameCatalog = GameCatalog()) throws(StreakStoreError) -> StreakStore {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .open(path: folder.path, reason: "cannot create the folder: \(error)")
        }
        return try StreakStore(path: folder.appendingPathComponent(fileName).path, catalog: catalog)
    }

    /// A store in memory, gone when the last copy is released: for tests and previews.
    /// - Throws: `StreakStoreError.open`.
    public static func inMemory(catalog: GameCatalog = GameCatalog()) throws(StreakStoreError) -> StreakStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw .open(path: ":memory:", reason: "\(error)")
        }
        return try StreakStore(database: queue, path: nil, catalog: catalog)
    }

    private init(database: any DatabaseWriter, path: String?, catalog: GameCatalog) throws(StreakStoreError) {
        self.database = database
        self.path = path
        self.catalog = catalog
        do {
            if let path {
                try MigrationLock.holding(path: path) { try StreakStoreSchema.migrator.migrate(database) }
            } else {
                try StreakStoreSchema.migrator.migrate(database)
            }
        } catch {
            throw .open(path: path ?? ":memory:", reason: "cannot migrate: \(error)")
        }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "streaksync-store"
        // Two processes may open one profile (the app opened twice, the share inbox drained by
        // both): a write waits for the other's transaction instead of failing at once.
        configuration.busyMode = .timeout(10)
        return configuration
    }

    // MARK: - Error mapping

    /// Runs `body` in a read transaction; a GRDB error becomes `.read`.
    func read<T>(_ what: String, _ body: (Database) throws -> T) throws(StreakStoreError) -> T {
        do {
            return try database.read(body)
        } catch let error as StreakStoreError {
            throw error
        } catch {
            throw .read("\(what): \(error)")
        }
    }

    /// Runs `body` in a write transaction (rolled back on any error); a GRDB error becomes `.write`.
    func write<T>(_ what: String, _ body: (Database) throws -> T) throws(StreakStoreError) -> T {
        do {
            return try database.write(body)
        } catch let error as StreakStoreError {
            throw error
        } catch {
            throw .write("\(what): \(error)")
        }
    }
}
