import Logging
import NIOConcurrencyHelpers
import NIOPosix
import SQLiteNIO

/// Copies a file database's write-ahead log back into the database from a connection of its own,
/// on the readers' threads, so the writer never does.
///
/// With SQLite's default, the connection whose commit takes the log past 1,000 pages runs the
/// checkpoint inside that commit: on the group commit's writer that was 7 % of the server's CPU
/// under a sign-up load, on the one thread every write waits for. Every connection of the store
/// runs with `wal_autocheckpoint = 0` instead, and this runs a PASSIVE checkpoint (it never
/// waits for readers or the writer) every `interval` after something was committed, and at
/// least every `idleInterval`. SQLite restarts the log from its beginning at the next write once
/// a checkpoint has copied all of it, so the log stays about one interval of writes long.
///
/// Under a steady stream of writes a PASSIVE checkpoint never copies *all* of the log: the
/// writer appends frames while it copies, so SQLite never restarts the log, and it grows
/// without bound (1.2 GB in 8 s of sign-ups measured on the development machine; each new frame
/// past the end of the file also made the kernel allocate and zero a block, 16 % of the writer
/// thread). So when a checkpoint finds the log at least `restartFrames` long (it was not
/// restarted since the last one, or the writes of one interval were that many), a second one
/// runs at once while holding the writer's connection: writes wait for the copy of the frames
/// appended since the first (which copied the bulk while they ran), the whole log is then in
/// the database, and the next commit restarts the log from its beginning.
final class SQLiteCheckpointer: Sendable {
    /// One checkpoint's outcome, as `PRAGMA wal_checkpoint` reports it.
    struct Outcome: Sendable, Equatable {
        /// Frames in the log.
        var logFrames: Int
        /// Frames copied into the database so far.
        var checkpointedFrames: Int
    }

    struct Statistics: Sendable, Equatable {
        var checkpoints = 0
        /// Checkpoints finished while holding the writer (see the type's notes).
        var heldWrites = 0
        var failures = 0
        var last: Outcome?
    }

    private let handle: SQLiteHandle
    private let threadPool: NIOThreadPool
    private let commits: @Sendable () -> Int
    /// The group commit's writer: holding its connection holds every write.
    private let writer: SQLiteConnectionPool?
    private let restartFrames: Int
    private let interval: Duration
    private let idleInterval: Duration
    private let logger: Logger
    private let counts = NIOLockedValueBox(Statistics())
    private let loop = NIOLockedValueBox<Task<Void, Never>?>(nil)

    /// Opens the checkpointer's connection to `path`; its checkpoints run on `threadPool` (the
    /// readers' threads: a checkpoint is a short blocking call, and the writer's thread is the one
    /// to keep free).
    /// - Parameters:
    ///   - commits: a count that grows with each commit (the group commit's groups).
    ///   - writer: the writer's connection pool, held while a checkpoint finishes a log that
    ///     PASSIVE ones could not keep up with; nil never holds writes.
    ///   - restartFrames: a log this many frames long makes a checkpoint finish with the writer
    ///     held (16,384 frames of 4 KiB pages: 64 MiB of log; interleaved sign-up runs at 4,096,
    ///     16,384 and 65,536 were within the machine's noise of each other and of no restart).
    /// - Throws: `KindredStoreError.connectionFailed`.
    static func open(
        path: String, busyTimeout: Duration, threadPool: NIOThreadPool, commits: @escaping @Sendable () -> Int,
        writer: SQLiteConnectionPool? = nil, restartFrames: Int = 16_384,
        interval: Duration = .milliseconds(100), idleInterval: Duration = .seconds(5), logger: Logger
    ) async throws -> SQLiteCheckpointer {
        let handle = try await threadPool.runIfActive {
            let handle = try SQLiteHandle(path: path)
            do {
                for pragma in ["PRAGMA busy_timeout = \(busyTimeout.milliseconds)", "PRAGMA wal_autocheckpoint = 0"] {
                    try handle.run(pragma, []) { _ in }
                }
            } catch {
                handle.close()
                throw error
            }
            return handle
        }
        return SQLiteCheckpointer(
            handle: handle, threadPool: threadPool, commits: commits, writer: writer, restartFrames: restartFrames,
            interval: interval, idleInterval: idleInterval, logger: logger
        )
    }

    private init(
        handle: SQLiteHandle, threadPool: NIOThreadPool, commits: @escaping @Sendable () -> Int,
        writer: SQLiteConnectionPool?, restartFrames: Int, interval: Duration, idleInterval: Duration, logger: Logger
    ) {
        self.handle = handle
        self.threadPool = threadPool
        self.commits = commits
        self.writer = writer
        self.restartFrames = restartFrames
        self.interval = interval
        self.idleInterval = idleInterval
        self.logger = logger
    }

    /// Checkpoints so far.
    var statistics: Statistics { counts.withLockedValue { $0 } }

    /// Starts the loop (once).
    func start() {
        loop.withLockedValue { loop in
            guard loop == nil else { return }
            loop = Task { await self.run() }
        }
    }

    /// Runs one PASSIVE checkpoint now.
    /// - Returns: the log's size and how much of it is in the database.
    @discardableResult
    func checkpoint() async throws -> Outcome {
        let handle = handle
        do {
            let outcome = try await threadPool.runIfActive {
                var outcome = Outcome(logFrames: 0, checkpointedFrames: 0)
                // Columns: busy, log frames, checkpointed frames (-1 and -1 when not in WAL mode).
                try handle.run("PRAGMA wal_checkpoint(PASSIVE)", []) { row in
                    if case .integer(let log) = row.values[1], case .integer(let done) = row.values[2] {
                        outcome = Outcome(logFrames: max(log, 0), checkpointedFrames: max(done, 0))
                    }
                }
                return outcome
            }
            counts.withLockedValue {
                $0.checkpoints += 1
                $0.last = outcome
            }
            return outcome
        } catch {
            counts.withLockedValue { $0.failures += 1 }
            throw error
        }
    }

    private func run() async {
        var seen = commits()
        var idle = Duration.zero
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            idle += interval
            let now = commits()
            guard now != seen || idle >= idleInterval else { continue }
            seen = now
            idle = .zero
            do {
                let outcome = try await checkpoint()
                if let writer, outcome.logFrames >= restartFrames {
                    try await writer.withConnection { _ in try await self.checkpoint() }
                    counts.withLockedValue { $0.heldWrites += 1 }
                }
            } catch is CancellationError {
                return  // closing: `close()` runs the last checkpoint
            } catch {
                logger.warning("SQLite checkpoint failed (the next one retries): \(error)")
            }
        }
    }

    /// Stops the loop, runs a last checkpoint and closes the connection (before the thread pool
    /// stops).
    func close() async {
        let task = loop.withLockedValue { loop in
            defer { loop = nil }
            return loop
        }
        task?.cancel()
        await task?.value
        _ = try? await checkpoint()
        let handle = handle
        try? await threadPool.runIfActive { handle.close() }
    }
}
