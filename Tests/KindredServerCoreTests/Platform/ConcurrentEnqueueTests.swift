@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Many keyed enqueues at once (what a burst of webhooks does): on PostgreSQL they are written
/// together by `EnqueueBatcher`, on SQLite under the group commit. Either way each key is
/// enqueued exactly once, every other enqueue of it is a duplicate, and every item holds its own
/// payload.
@Suite struct ConcurrentEnqueueTests {
    @Test("300 concurrent keyed enqueues, each key three times: one item per key with its payload", arguments: Backend.all)
    func concurrentKeyedEnqueues(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let queue = WorkQueue(database: database, clock: TestClock(), random: { 1 })
            // Key k-7 already queued before the burst: all three of its enqueues are duplicates.
            guard case .enqueued = try await queue.enqueue(queue: "hooks", payload: "early", dedupeKey: "k-7") else {
                Issue.record("the first enqueue of k-7 must be enqueued"); return
            }
            let results = try await withThrowingTaskGroup(of: (Int, EnqueueResult).self) { group in
                for index in 0..<300 {
                    group.addTask {
                        let key = index % 100
                        return (key, try await queue.enqueue(queue: "hooks", payload: "payload-\(key)", dedupeKey: "k-\(key)"))
                    }
                }
                var results: [Int: [EnqueueResult]] = [:]
                for try await (key, result) in group { results[key, default: []].append(result) }
                return results
            }
            var enqueuedIDs: [Int: String] = [:]
            for key in 0..<100 {
                let outcomes = results[key] ?? []
                #expect(outcomes.count == 3)
                let enqueued = outcomes.compactMap { outcome -> String? in
                    if case .enqueued(let id) = outcome { return id } else { return nil }
                }
                #expect(enqueued.count == (key == 7 ? 0 : 1), "key \(key): \(outcomes)")
                #expect(outcomes.filter { $0 == .duplicate }.count == (key == 7 ? 3 : 2), "key \(key)")
                enqueuedIDs[key] = enqueued.first
            }
            let rows = try await database.sql.raw("SELECT id, payload, dedupe_key FROM kindred_queue_items").all()
            #expect(rows.count == 100)
            for row in rows {
                let key = try row.decode(column: "dedupe_key", as: String.self)
                let number = try #require(Int(key.dropFirst(2)))
                let payload = try row.decode(column: "payload", as: String.self)
                #expect(payload == (number == 7 ? "early" : "payload-\(number)"))
                if number != 7 { #expect(try row.decode(column: "id", as: String.self) == enqueuedIDs[number]) }
            }
            #expect(try await database.sql.count("kindred_queue_dedupe_keys") == 100)
        }
    }

    @Test("one statement for a batch: a key twice in it is written once, a key already queued is a duplicate")
    func batchStatement() async throws {
        try await withMigratedDatabase(.postgresql) { database in
            func request(_ id: String, _ key: String) -> EnqueueBatcher.Request {
                EnqueueBatcher.Request(id: id, queue: "hooks", payload: "p-\(id)", dedupeKey: key, runAt: 5, now: 1)
            }
            let first = try await EnqueueBatcher.insert([request("a", "x")], on: database.sql)
            #expect(first == [.enqueued(id: "a")])
            let results = try await EnqueueBatcher.insert(
                [request("b", "y"), request("c", "x"), request("d", "y"), request("e", "z")], on: database.sql
            )
            #expect(results == [.enqueued(id: "b"), .duplicate, .duplicate, .enqueued(id: "e")])
            let rows = try await database.sql.raw("SELECT id, payload, run_at, created_at FROM kindred_queue_items ORDER BY id").all()
            #expect(try rows.map { try $0.decode(column: "id", as: String.self) } == ["a", "b", "e"])
            #expect(try rows.map { try $0.decode(column: "payload", as: String.self) } == ["p-a", "p-b", "p-e"])
            #expect(try rows.map { try $0.decode(column: "run_at", as: Int64.self) } == [5, 5, 5])
        }
    }
}
