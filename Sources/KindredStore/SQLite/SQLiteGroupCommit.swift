import NIOConcurrencyHelpers
import NIOCore
import SQLKit

/// SQLite's write transactions, committed in groups: concurrent `Database.transaction` calls
/// queue here, and one writer runs as many of their bodies as are waiting (up to
/// `Limits.maxBodies`, or `Limits.maxDuration` of work) inside one `BEGIN IMMEDIATE … COMMIT`.
///
/// At `synchronous=FULL` every commit waits for the disk to flush the write-ahead log, so one
/// commit per transaction caps the server's writes at the disk's flush rate; a group pays one
/// flush for all of its bodies. Durability is unchanged: a caller is answered only after the
/// `COMMIT` that contains its writes has returned.
///
/// - Each body runs inside its own `SAVEPOINT`: a body that throws is rolled back alone
///   (`ROLLBACK TO` + `RELEASE`) and its error goes to its caller only; the others go on.
/// - A failed `COMMIT` (or a failed savepoint statement, which leaves the group's state
///   unknown) rolls the whole group back, and every caller whose body had succeeded gets
///   that error.
/// - A lone writer is never delayed: the group is committed as soon as the queue is empty.
/// - Bodies run one after another in the writer's task, not in the caller's: they see the
///   writes of earlier bodies of their group, but not the caller's task-local values.
/// - A `transaction` called from inside a body joins that body's group as a nested savepoint
///   (queueing behind its own group would wait forever).
final class SQLiteGroupCommit: Sendable {
    /// How large a group may grow.
    struct Limits: Sendable, Equatable {
        /// The most bodies in one group.
        var maxBodies = 128
        /// No body joins a group whose work (since its `BEGIN`) has taken longer than this.
        var maxDuration: Duration = .milliseconds(10)
    }

    /// The batch a body runs in, for nested transactions: which group commit, and its session.
    struct Batch: Sendable {
        let owner: ObjectIdentifier
        let session: any SQLDatabase
    }

    /// The batch whose body the current task is running.
    @TaskLocal static var current: Batch?

    private struct State {
        var queue = CircularBuffer<any GroupedWrite>()
        var isWriting = false
    }

    private let writer: SQLiteConnectionPool
    private let executor: ThreadPoolTaskExecutor
    private let limits: Limits
    private let state = NIOLockedValueBox(State())
    private let statistics = NIOLockedValueBox(GroupCommitStatistics())

    /// Groups writes within `limits`, on the connection of `writer`, with the writer's task
    /// running on `executor` (the thread of that connection's SQLite calls).
    init(writer: SQLiteConnectionPool, executor: ThreadPoolTaskExecutor, limits: Limits) {
        self.writer = writer
        self.executor = executor
        self.limits = limits
    }

    /// The groups committed so far.
    var committed: GroupCommitStatistics { statistics.withLockedValue { $0 } }

    /// Transactions waiting for the writer (not counting the group being written).
    var queued: Int { state.withLockedValue { $0.queue.count } }

    /// Runs `body` in the next group and returns its result once that group is committed.
    /// - Throws: what `body` throws (its writes rolled back), or the group's `COMMIT` error.
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        if let batch = Self.current, batch.owner == ObjectIdentifier(self) {
            return try await Self.nested(body, on: batch.session)
        }
        return try await withCheckedThrowingContinuation { continuation in
            let write = PendingWrite(body: body, continuation: continuation)
            let startsWriter = state.withLockedValue { state in
                state.queue.append(write)
                guard !state.isWriting else { return false }
                state.isWriting = true
                return true
            }
            // Detached: the writer must not inherit the task-local values of whichever caller
            // happened to start it, as it runs the bodies of every caller.
            if startsWriter { Task.detached(executorPreference: executor) { await self.write() } }
        }
    }

    /// Commits groups until the queue is empty, then stops (the next caller starts it again).
    private func write() async {
        while true {
            let hasWork = state.withLockedValue { state in
                if state.queue.isEmpty { state.isWriting = false }
                return state.isWriting
            }
            guard hasWork else { return }
            do {
                try await writer.withConnection { entry in await self.commitGroup(on: entry.sql) }
            } catch {
                // The pool is closed: nothing can be written any more.
                for write in takeAll() { write.finish(groupError: error) }
            }
        }
    }

    /// One group: `BEGIN IMMEDIATE`, each waiting body in its savepoint, `COMMIT`.
    private func commitGroup(on session: any SQLDatabase) async {
        do {
            try await session.raw("BEGIN IMMEDIATE").run()
        } catch {
            // Every waiting transaction would have begun the same way and failed the same way.
            for write in take(upTo: limits.maxBodies) { write.finish(groupError: error) }
            return
        }
        let started = ContinuousClock.now
        var group: [any GroupedWrite] = []
        do {
            while group.count < limits.maxBodies, group.isEmpty || ContinuousClock.now - started < limits.maxDuration,
                let write = take(upTo: 1).first
            {
                group.append(write)
                try await session.raw("SAVEPOINT kindred_write").run()
                let succeeded = await Self.$current.withValue(Batch(owner: ObjectIdentifier(self), session: session)) {
                    await write.run(on: session)
                }
                if !succeeded { try await session.raw("ROLLBACK TO kindred_write").run() }
                try await session.raw("RELEASE kindred_write").run()
            }
            try await session.raw("COMMIT").run()
        } catch {
            try? await session.raw("ROLLBACK").run()
            for write in group { write.finish(groupError: error) }
            return
        }
        statistics.withLockedValue { $0.record(bodies: group.count) }
        for write in group { write.finish(groupError: nil) }
    }

    /// A transaction inside a body: a savepoint of the body's group, on its session.
    private static func nested<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T, on session: any SQLDatabase
    ) async throws -> T {
        try await session.raw("SAVEPOINT kindred_nested").run()
        let result: T
        do {
            result = try await body(session)
        } catch {
            try await session.raw("ROLLBACK TO kindred_nested").run()
            try await session.raw("RELEASE kindred_nested").run()
            throw error
        }
        try await session.raw("RELEASE kindred_nested").run()
        return result
    }

    /// The first `count` waiting transactions, taken off the queue.
    private func take(upTo count: Int) -> [any GroupedWrite] {
        state.withLockedValue { state in
            var taken: [any GroupedWrite] = []
            while taken.count < count, let write = state.queue.popFirst() { taken.append(write) }
            return taken
        }
    }

    /// Every waiting transaction, taken off the queue.
    private func takeAll() -> [any GroupedWrite] {
        state.withLockedValue { state in
            defer { state.queue.removeAll() }
            return Array(state.queue)
        }
    }
}

/// How many groups were committed and how large they were.
struct GroupCommitStatistics: Sendable, Equatable {
    /// Groups committed.
    var groups = 0
    /// Bodies in those groups (committed or rolled back to their savepoint).
    var bodies = 0
    /// The most bodies one group held.
    var largest = 0

    /// Counts one committed group of `count` bodies.
    mutating func record(bodies count: Int) {
        groups += 1
        bodies += count
        largest = max(largest, count)
    }
}
