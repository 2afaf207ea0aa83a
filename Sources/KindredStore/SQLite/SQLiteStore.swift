import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// Everything an open SQLite database runs on: the readers' connections and threads, the
/// writer's connection and thread, the group commit that writes through it, and (for a file)
/// the checkpointer's connection (run on the readers' threads).
///
/// A file database has `readerCount` readers on a thread pool of as many threads, and one
/// more connection for writing with a thread of its own (the group commit's writer task runs
/// there, see `ThreadPoolTaskExecutor`). A private in-memory database has one connection, which
/// reads and writes on one thread (so a transaction body there must use only the session it is
/// given: during a group, the one connection is the writer's).
struct SQLiteStore: Sendable {
    /// The connections of `Database.sql`.
    let readers: SQLiteConnectionPool
    /// The connection of the group commit (`readers` itself for an in-memory database).
    let writer: SQLiteConnectionPool
    /// Every transaction goes through it.
    let groupCommit: SQLiteGroupCommit
    /// A file database's checkpoints (an in-memory one has no log).
    let checkpointer: SQLiteCheckpointer?
    private let threadPools: [NIOThreadPool]

    /// Opens the connections and applies `configuration`'s pragmas to each.
    /// - Throws: the driver's error; whatever was opened is closed again.
    static func open(
        _ configuration: DatabaseConfiguration, storage: SQLiteConnection.Storage, eventLoop: any EventLoop,
        logger: Logger
    ) async throws -> SQLiteStore {
        let isMemory: Bool
        if case .memory = storage { isMemory = true } else { isMemory = false }
        let readerCount = isMemory ? 1 : Self.readerCount(configuration)
        // A file database's log is checkpointed by `SQLiteCheckpointer`, never inside a commit.
        let pragmas = configuration.sqlitePragmas + (isMemory ? [] : ["PRAGMA wal_autocheckpoint = 0"])
        let readerThreads = NIOThreadPool(numberOfThreads: readerCount)
        readerThreads.start()
        var threadPools = [readerThreads]
        var opened: [SQLiteConnectionPool] = []
        do {
            let readers = try await SQLiteConnectionPool.open(
                storage: storage, count: readerCount,
                pragmas: pragmas, threadPool: readerThreads, eventLoop: eventLoop, logger: logger
            )
            opened.append(readers)
            var writer = readers
            var writerThreads = readerThreads
            if !isMemory {
                writerThreads = NIOThreadPool(numberOfThreads: 1)
                writerThreads.start()
                threadPools.append(writerThreads)
                writer = try await SQLiteConnectionPool.open(
                    storage: storage, count: 1, pragmas: pragmas, threadPool: writerThreads,
                    eventLoop: eventLoop, logger: logger
                )
                opened.append(writer)
            }
            let groupCommit = SQLiteGroupCommit(
                writer: writer, executor: ThreadPoolTaskExecutor(threadPool: writerThreads),
                limits: configuration.sqliteGroupLimits
            )
            var checkpointer: SQLiteCheckpointer?
            if case .file(let path) = storage {
                checkpointer = try await SQLiteCheckpointer.open(
                    path: path, busyTimeout: configuration.sqliteBusyTimeout, threadPool: readerThreads,
                    commits: { groupCommit.committed.groups }, writer: writer,
                    restartFrames: configuration.sqliteCheckpointRestartFrames, logger: logger
                )
                checkpointer?.start()
            }
            return SQLiteStore(
                readers: readers, writer: writer, groupCommit: groupCommit, checkpointer: checkpointer,
                threadPools: threadPools
            )
        } catch {
            for pool in opened { await pool.close() }
            for threadPool in threadPools { try? await threadPool.shutdownGracefully() }
            throw error
        }
    }

    /// How many readers a file database gets: `maxConnections`, but no more than the machine has
    /// cores (at least 2). A read of a cached database is CPU work; more threads than cores only
    /// add thread switches (measured with `scripts/bench-server` on 2 cores: 4 readers served
    /// `GET /v1/me` at ≈ 0.14× the bare server, 2 at ≈ 0.16×, 1 at ≈ 0.15×).
    static func readerCount(_ configuration: DatabaseConfiguration) -> Int {
        min(configuration.maxConnections, max(2, System.coreCount))
    }

    /// Closes every connection once it is back (the writer's after its last group), then stops
    /// the threads.
    func close() async {
        await readers.close()
        if writer !== readers { await writer.close() }
        // Last: its final checkpoint runs after every write, and closing the database's last
        // connection lets SQLite remove the log.
        await checkpointer?.close()
        for threadPool in threadPools { try? await threadPool.shutdownGracefully() }
    }
}
