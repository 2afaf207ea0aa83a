/// How to open a `Database`: where it is, and the settings of its connections.
public struct DatabaseConfiguration: Sendable, Equatable {
    /// SQLite's `synchronous` setting: how hard a commit waits for the disk.
    public enum SQLiteSynchronous: String, Sendable, Equatable, CaseIterable {
        /// Every commit is on disk before it returns (the default: no acknowledged write is lost).
        case full = "FULL"
        /// Commits may be lost on power failure (never corrupted); faster.
        case normal = "NORMAL"
    }

    /// Where the data lives.
    public var url: DatabaseURL
    /// SQLite's `synchronous` pragma, applied to every connection.
    public var sqliteSynchronous: SQLiteSynchronous
    /// How long an SQLite connection waits for another writer before failing.
    public var sqliteBusyTimeout: Duration
    /// The most connections the pool opens (a private in-memory SQLite database always has one;
    /// an SQLite file has this many for reading, or as many as the machine has cores if that is
    /// fewer but at least 2, and one more for its group commit's writes).
    public var maxConnections: Int
    /// How large SQLite's commit groups may grow (not public: tests widen them so that their
    /// grouping does not depend on the machine's speed).
    var sqliteGroupLimits = SQLiteGroupCommit.Limits()
    /// How long (in frames) the log may be found before a checkpoint finishes with the writer
    /// held, so that the log restarts (see `SQLiteCheckpointer`; not public: tests lower it).
    var sqliteCheckpointRestartFrames = 16_384

    /// Creates a configuration.
    /// - Parameters:
    ///   - url: where the data lives.
    ///   - sqliteSynchronous: `FULL` unless the operator chooses `NORMAL`.
    ///   - sqliteBusyTimeout: 5 seconds by default.
    ///   - maxConnections: 4 by default.
    public init(
        url: DatabaseURL,
        sqliteSynchronous: SQLiteSynchronous = .full,
        sqliteBusyTimeout: Duration = .seconds(5),
        maxConnections: Int = 4
    ) {
        self.url = url
        self.sqliteSynchronous = sqliteSynchronous
        self.sqliteBusyTimeout = sqliteBusyTimeout
        self.maxConnections = maxConnections
    }

    /// The statements run on every new SQLite connection, in order.
    ///
    /// `busy_timeout` comes first so that switching to WAL waits for a concurrent opener.
    ///
    /// - `temp_store = MEMORY`: the group commit runs every body in a savepoint, and SQLite
    ///   keeps the original of each page a savepoint changes in a sub-journal, by default a
    ///   temporary *file*: a `pwrite` per page, 16 % of the writer thread under sign-ups.
    ///   In memory it is a copy (bounded by one group's changes); the durable log is unchanged.
    /// - `cache_size = -16384` (16 MiB per connection instead of SQLite's 2 MiB): with a
    ///   database larger than the default cache, the writer read index pages back from the
    ///   file with a `pread` each (10 % of its thread under sign-ups).
    var sqlitePragmas: [String] {
        [
            "PRAGMA busy_timeout = \(sqliteBusyTimeout.milliseconds)",
            "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = \(sqliteSynchronous.rawValue)",
            "PRAGMA foreign_keys = ON",
            "PRAGMA temp_store = MEMORY",
            "PRAGMA cache_size = -16384",
        ]
    }

    /// Checks the ranges of the settings.
    func validate() throws(KindredStoreError) {
        guard (1...64).contains(maxConnections) else {
            throw .invalidConfiguration("maxConnections must be between 1 and 64, not \(maxConnections)")
        }
        guard sqliteBusyTimeout >= .zero, sqliteBusyTimeout <= .seconds(600) else {
            throw .invalidConfiguration("the SQLite busy timeout must be between 0 and 600 seconds")
        }
    }
}
