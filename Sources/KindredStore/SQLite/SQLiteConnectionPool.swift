import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// The SQLite connections of one database, opened up front and lent to one query or session at
/// a time.
///
/// Borrowing and returning a connection is a lock and an array operation on the caller's own
/// thread. A statement on its own (`Entry.sql`) then runs on the caller's thread too; the
/// statements of a session (`Entry.sessionSQL`: exports, jobs, anything that may read much) each
/// make one round trip to the pool's threads, so a long read never holds a thread of Swift's
/// cooperative pool. The connection keeps its prepared statements (`SQLiteHandle`). A caller
/// finding every connection busy waits, first come first served, until one is returned.
final class SQLiteConnectionPool: Sendable {
    /// One open connection and its SQLKit views (made once; their decoders hold a `JSONDecoder`).
    struct Entry: Sendable {
        let handle: SQLiteHandle
        /// Runs each statement on the caller's thread.
        let sql: any SQLDatabase
        /// Runs each statement on the pool's threads.
        let sessionSQL: any SQLDatabase
    }

    private struct State {
        var idle: [Entry]
        var waiters = CircularBuffer<CheckedContinuation<Entry, any Error>>()
        var isClosed = false
        /// `close()`, waiting for the connections still lent out.
        var closer: CheckedContinuation<Void, Never>?
    }

    private let entries: [Entry]
    private let threadPool: NIOThreadPool
    private let state: NIOLockedValueBox<State>
    /// The event loop SQLKit's future-based API answers on.
    let eventLoop: any EventLoop

    private init(entries: [Entry], threadPool: NIOThreadPool, eventLoop: any EventLoop) {
        self.entries = entries
        self.threadPool = threadPool
        self.eventLoop = eventLoop
        state = NIOLockedValueBox(State(idle: entries))
    }

    /// Opens `count` connections, applying `pragmas` to each, one after another (so the first one
    /// switches a new file to WAL before the others open it).
    /// - Throws: the driver's error; connections opened before it are closed.
    static func open(
        storage: SQLiteConnection.Storage, count: Int, pragmas: [String], threadPool: NIOThreadPool,
        eventLoop: any EventLoop, logger: Logger
    ) async throws -> SQLiteConnectionPool {
        let path: String
        switch storage {
        case .memory: path = ":memory:"
        case .file(let file): path = file
        }
        var entries: [Entry] = []
        do {
            for _ in 0..<count {
                let handle = try await threadPool.runIfActive { try SQLiteHandle(path: path) }
                let sql = SQLiteHandleDatabase(
                    handle: handle, threadPool: threadPool, eventLoop: eventLoop, logger: logger, offloads: false
                )
                let sessionSQL = SQLiteHandleDatabase(
                    handle: handle, threadPool: threadPool, eventLoop: eventLoop, logger: logger, offloads: true
                )
                entries.append(Entry(handle: handle, sql: sql, sessionSQL: sessionSQL))
                for pragma in pragmas {
                    try await sql.raw(SQLQueryString(pragma)).run()
                }
            }
        } catch {
            for entry in entries { try? await threadPool.runIfActive { entry.handle.close() } }
            throw error
        }
        return SQLiteConnectionPool(entries: entries, threadPool: threadPool, eventLoop: eventLoop)
    }

    /// The SQLite library's version, as SQLKit reports it.
    var version: (any SQLDatabaseReportedVersion)? { entries.first?.sql.version }

    /// Lends a connection to `body` and takes it back when `body` returns or throws.
    /// - Throws: `KindredStoreError.closed` after `close()`, or what `body` throws.
    func withConnection<T>(_ body: (Entry) async throws -> T) async throws -> T {
        let entry = try await borrow()
        do {
            let result = try await body(entry)
            giveBack(entry)
            return result
        } catch {
            giveBack(entry)
            throw error
        }
    }

    /// An idle connection, or a place in the queue for the next one returned.
    private func borrow() async throws -> Entry {
        enum Outcome { case entry(Entry), closed, wait }
        let outcome: Outcome = state.withLockedValue { state in
            if state.isClosed { return .closed }
            if let entry = state.idle.popLast() { return .entry(entry) }
            return .wait
        }
        switch outcome {
        case .entry(let entry): return entry
        case .closed: throw KindredStoreError.closed
        case .wait:
            return try await withCheckedThrowingContinuation { continuation in
                let immediate: Result<Entry, any Error>? = state.withLockedValue { state in
                    // Re-checked under the lock: a connection may have come back meanwhile.
                    if state.isClosed { return .failure(KindredStoreError.closed) }
                    if let entry = state.idle.popLast() { return .success(entry) }
                    state.waiters.append(continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        }
    }

    /// Hands `entry` to the longest waiting borrower, or puts it back among the idle ones.
    private func giveBack(_ entry: Entry) {
        let count = entries.count
        let (waiter, closer) = state.withLockedValue { state -> (CheckedContinuation<Entry, any Error>?, CheckedContinuation<Void, Never>?) in
            if let waiter = state.waiters.popFirst() { return (waiter, nil) }
            state.idle.append(entry)
            guard state.idle.count == count, let closer = state.closer else { return (nil, nil) }
            state.closer = nil
            return (nil, closer)
        }
        waiter?.resume(returning: entry)
        closer?.resume()
    }

    /// Refuses new borrowers, fails the waiting ones, waits for the connections still lent out,
    /// and closes them all. Call it once.
    func close() async {
        let waiters = state.withLockedValue { state in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters)
        }
        for waiter in waiters { waiter.resume(throwing: KindredStoreError.closed) }
        let count = entries.count
        await withCheckedContinuation { (closer: CheckedContinuation<Void, Never>) in
            let allBack = state.withLockedValue { state in
                if state.idle.count == count { return true }
                state.closer = closer
                return false
            }
            if allBack { closer.resume() }
        }
        for entry in entries { try? await threadPool.runIfActive { entry.handle.close() } }
    }
}
