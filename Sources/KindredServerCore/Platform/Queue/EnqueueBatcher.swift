import KindredStore
import SQLKit
import Synchronization

/// Group enqueue for PostgreSQL: enqueues with an idempotency key that arrive while one is being
/// written are written together, as one statement that inserts every fresh key and its item
/// (`unnest` over array binds, so the statement's text is the same for any number of items).
///
/// Each caller still returns only after PostgreSQL committed its item (the statement runs in
/// autocommit), so an acknowledged enqueue is as durable as one written alone; under load the
/// statement, its round trip and its commit are shared by everything that arrived meanwhile.
/// An idle queue writes a lone enqueue at once: nothing waits for company.
final class EnqueueBatcher: Sendable {
    /// One enqueue to write.
    struct Request: Sendable {
        /// The new item's id.
        var id: String
        /// The queue's name (validated by the caller).
        var queue: String
        /// The work's description.
        var payload: String
        /// The idempotency key (validated by the caller).
        var dedupeKey: String
        /// Not before this time (ms since 1970).
        var runAt: Int64
        /// When it was enqueued (ms since 1970).
        var now: Int64
    }

    private struct Waiting {
        var request: Request
        var continuation: CheckedContinuation<EnqueueResult, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var writers = 0
    }

    private let database: Database
    /// The most enqueues in one statement.
    let maxBatch: Int
    /// The most statements in flight at once (each on its own pooled connection).
    let maxWriters: Int
    private let state = Mutex(State())

    /// Creates a batcher writing to `database` (PostgreSQL).
    init(database: Database, maxBatch: Int = 256, maxWriters: Int = 2) {
        self.database = database
        self.maxBatch = max(1, maxBatch)
        self.maxWriters = max(1, maxWriters)
    }

    /// Writes `request` with whatever else is waiting, and returns once it is committed.
    /// - Returns: `.enqueued(id:)`, or `.duplicate` when the key was already queued (or earlier
    ///   in the same batch).
    /// - Throws: the database's error (every enqueue of the failed statement gets it).
    func enqueue(_ request: Request) async throws -> EnqueueResult {
        try await withCheckedThrowingContinuation { continuation in
            let startWriter = state.withLock { state in
                state.waiting.append(Waiting(request: request, continuation: continuation))
                guard state.writers < maxWriters else { return false }
                state.writers += 1
                return true
            }
            if startWriter {
                Task { await self.write() }
            }
        }
    }

    /// Writes batches until nothing is waiting, then retires.
    private func write() async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                guard !state.waiting.isEmpty else {
                    state.writers -= 1
                    return []
                }
                let batch = Array(state.waiting.prefix(maxBatch))
                state.waiting.removeFirst(batch.count)
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let results = try await Self.insert(batch.map(\.request), on: database.sql)
                for (waiting, result) in zip(batch, results) { waiting.continuation.resume(returning: result) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }

    /// Inserts the requests' fresh keys and their items in one statement.
    /// - Returns: each request's result, in order.
    static func insert(_ requests: [Request], on sql: any SQLDatabase) async throws -> [EnqueueResult] {
        // A key twice in one batch: the first is written, the others are duplicates of it.
        var seen = Set<KeyPair>()
        var fresh: [Request] = []
        var firstOfKey: [Bool] = []
        for request in requests {
            let isFirst = seen.insert(KeyPair(queue: request.queue, key: request.dedupeKey)).inserted
            firstOfKey.append(isFirst)
            if isFirst { fresh.append(request) }
        }
        let now = fresh.first?.now ?? 0
        let rows = try await sql.raw("""
            WITH input AS (
                SELECT * FROM unnest(\(bind: fresh.map(\.id)), \(bind: fresh.map(\.queue)), \(bind: fresh.map(\.payload)),
                    \(bind: fresh.map(\.dedupeKey)), \(bind: fresh.map(\.runAt))) AS t(id, queue, payload, dedupe_key, run_at)),
            keys AS (
                INSERT INTO kindred_queue_dedupe_keys (queue, dedupe_key, created_at)
                SELECT queue, dedupe_key, \(bind: now) FROM input
                ON CONFLICT DO NOTHING RETURNING queue, dedupe_key)
            INSERT INTO kindred_queue_items (id, queue, payload, dedupe_key, attempts, run_at, created_at)
            SELECT input.id, input.queue, input.payload, input.dedupe_key, 0, input.run_at, \(bind: now)
            FROM input JOIN keys ON keys.queue = input.queue AND keys.dedupe_key = input.dedupe_key
            RETURNING id
            """).all()
        let inserted = Set(try rows.map { try $0.decode(column: "id", as: String.self) })
        return zip(requests, firstOfKey).map { request, isFirst in
            isFirst && inserted.contains(request.id) ? .enqueued(id: request.id) : .duplicate
        }
    }

    private struct KeyPair: Hashable {
        var queue: String
        var key: String
    }
}
