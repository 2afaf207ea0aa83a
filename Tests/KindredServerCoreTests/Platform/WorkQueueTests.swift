@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The durable work queue on SQLite and PostgreSQL, driven by a test clock.
@Suite struct WorkQueueTests {
    struct Rollback: Error {}

    /// A queue whose jitter is pinned to `unit`.
    func workQueue(_ database: Database, _ clock: TestClock, unit: Double = 1) -> WorkQueue {
        WorkQueue(database: database, clock: clock, random: { unit })
    }

    @Test(arguments: Backend.all)
    func enqueueRolledBackWithItsTransactionLeavesNothing(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let queue = workQueue(database, TestClock())
            await #expect(throws: Rollback.self) {
                try await database.transaction { sql in
                    try await queue.enqueue(queue: "mail", payload: "{}", dedupeKey: "order-1", on: sql)
                    throw Rollback()
                }
            }
            #expect(try await queue.pendingCount(queue: "mail") == 0)
            #expect(try await database.sql.count("kindred_queue_dedupe_keys") == 0)
            // The key was never taken: the same enqueue now succeeds, and a repeat is a duplicate.
            let first = try await queue.enqueue(queue: "mail", payload: "{}", dedupeKey: "order-1")
            guard case .enqueued = first else { Issue.record("expected .enqueued, got \(first)"); return }
            #expect(try await queue.enqueue(queue: "mail", payload: "{}", dedupeKey: "order-1") == .duplicate)
            // Keys are per queue.
            guard case .enqueued = try await queue.enqueue(queue: "sms", payload: "{}", dedupeKey: "order-1") else {
                Issue.record("a key of another queue must not collide"); return
            }
            #expect(try await queue.pendingCount(queue: "mail") == 1)
            await #expect(throws: QueueError.invalidQueueName("Mail Queue")) {
                try await queue.enqueue(queue: "Mail Queue", payload: "{}")
            }
        }
    }

    @Test(arguments: Backend.all)
    func twoConcurrentWorkersNeverDeliverAnItemTwice(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let other = try await openSecondHandle(database)
            let clock = TestClock()
            let deliveries = Tally()
            let queueA = workQueue(database, clock)
            let queueB = workQueue(other, clock)
            let ids = try await database.transaction { sql in
                var ids: [String] = []
                for number in 0..<200 {
                    if case .enqueued(let id) = try await queueA.enqueue(queue: "work", json: ["n": number], on: sql) { ids.append(id) }
                }
                return ids
            }
            let workers = [QueueWorker(queue: queueA, logger: platformLogger), QueueWorker(queue: queueB, logger: platformLogger)]
            for worker in workers {
                try worker.register(QueueHandler(queue: "work", concurrency: 8) { item in
                    deliveries.add(item.id)
                    await Task.yield()
                })
            }
            await withTaskGroup(of: Void.self) { group in
                for worker in workers {
                    group.addTask { while await worker.processAvailable() > 0 {} }
                }
            }
            #expect(deliveries.all.count == 200)
            #expect(Set(deliveries.all.keys) == Set(ids))
            #expect(deliveries.all.values.allSatisfy { $0 == 1 })
            #expect(try await queueA.pendingCount(queue: "work") == 0)
            await other.close()
        }
    }

    @Test(arguments: Backend.all)
    func anItemClaimedByAKilledWorkerIsReclaimedAfterItsLease(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let clock = TestClock()
            let queue = workQueue(database, clock)
            try await queue.enqueue(queue: "work", payload: #"{"n":1}"#)
            // The "killed" worker claims and never answers.
            let claimed = try await queue.claim(queue: "work", limit: 10, lease: .seconds(30), maxAttempts: 8)
            #expect(claimed.map(\.attempt) == [1])

            let attempts = Tally()
            let survivor = QueueWorker(queue: queue, logger: platformLogger)
            try survivor.register(QueueHandler(queue: "work", lease: .seconds(30)) { item in attempts.add("\(item.attempt)") })
            #expect(await survivor.processAvailable() == 0)  // still leased
            clock.advance(by: .seconds(29))
            #expect(await survivor.processAvailable() == 0)
            clock.advance(by: .seconds(1))
            #expect(await survivor.processAvailable() == 1)
            #expect(attempts.all == ["2": 1])
            #expect(try await queue.pendingCount(queue: "work") == 0)
            // The killed worker's late answer is refused: its claim is no longer current.
            #expect(try await queue.complete(claimed[0]) == false)
            #expect(try await queue.fail(claimed[0], error: "late", policy: RetryPolicy()) == .stale)
        }
    }

    @Test func backoffScheduleHasFullJitterUnderAnExponentialCeiling() {
        let policy = RetryPolicy()
        #expect(policy.maxAttempts == 8)
        #expect((1...10).map { policy.ceiling(afterAttempt: $0) }
            == [10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600].map { Duration.seconds($0) })
        #expect(policy.ceiling(afterAttempt: 60) == .seconds(3600))
        #expect(policy.delay(afterAttempt: 3, unit: 0) == .zero)
        #expect(policy.delay(afterAttempt: 3, unit: 0.5) == .seconds(20))
        #expect(policy.delay(afterAttempt: 3, unit: 1) == .seconds(40))
        #expect(policy.delay(afterAttempt: 12, unit: 0.25) == .seconds(900))
        let custom = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(1))
        #expect((1...4).map { custom.ceiling(afterAttempt: $0) } == [.milliseconds(500), .seconds(1), .seconds(1), .seconds(1)])
    }

    @Test(arguments: Backend.all)
    func failuresRetryWithBackoffThenDeadLetterAndRedrive(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let clock = TestClock(start: try instant("2026-01-01T00:00:00Z"))
            let queue = workQueue(database, clock, unit: 0.5)
            let worker = QueueWorker(queue: queue, logger: platformLogger)
            let healthy = Tally()
            let attempts = Tally()
            let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(10), maxDelay: .seconds(60))
            try worker.register(QueueHandler(queue: "push", policy: policy) { item in
                attempts.add("\(item.attempt)")
                guard healthy.count("yes") > 0 else { throw TestFailure(description: "provider down") }
            })
            guard case .enqueued(let id) = try await queue.enqueue(queue: "push", payload: #"{"to":"ada"}"#) else {
                Issue.record("not enqueued"); return
            }
            #expect(await worker.processAvailable() == 1)  // attempt 1 fails: retry in 0.5 × 10 s
            clock.advance(by: .seconds(4))
            #expect(await worker.processAvailable() == 0)
            clock.advance(by: .seconds(1))
            #expect(await worker.processAvailable() == 1)  // attempt 2 fails: retry in 0.5 × 20 s
            clock.advance(by: .seconds(9))
            #expect(await worker.processAvailable() == 0)
            clock.advance(by: .seconds(1))
            #expect(await worker.processAvailable() == 1)  // attempt 3 fails: dead-lettered
            #expect(attempts.all == ["1": 1, "2": 1, "3": 1])
            #expect(try await queue.pendingCount(queue: "push") == 0)
            let letters = try await queue.deadLetters()
            #expect(letters.map(\.id) == [id])
            #expect(letters.first?.attempts == 3)
            #expect(letters.first?.lastError == "provider down")
            #expect(letters.first?.payload == #"{"to":"ada"}"#)
            #expect(letters.first?.failedAt == (try instant("2026-01-01T00:00:15Z")))
            #expect(try await queue.deadLetters(queue: "other").isEmpty)

            await #expect(throws: QueueError.unknownDeadLetter("nope")) { try await queue.redrive(id: "nope") }
            try await queue.redrive(id: id)
            #expect(try await queue.deadLetters().isEmpty)
            healthy.add("yes")
            #expect(await worker.processAvailable() == 1)
            #expect(attempts.all == ["1": 2, "2": 1, "3": 1])  // attempts were reset
            #expect(try await queue.pendingCount(queue: "push") == 0)
        }
    }

    @Test(arguments: Backend.all)
    func redriveAllByQueueAndDeadLetteringAnExpiredLastLease(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let clock = TestClock()
            let queue = workQueue(database, clock)
            for name in ["a", "a", "b"] { try await queue.enqueue(queue: name, payload: "{}") }
            for name in ["a", "b"] {
                // One attempt allowed; the claimer dies; the next claim dead-letters instead of running.
                #expect(try await queue.claim(queue: name, limit: 10, lease: .seconds(5), maxAttempts: 1).count == (name == "a" ? 2 : 1))
            }
            clock.advance(by: .seconds(5))
            for name in ["a", "b"] {
                #expect(try await queue.claim(queue: name, limit: 10, lease: .seconds(5), maxAttempts: 1).isEmpty)
            }
            let letters = try await queue.deadLetters()
            #expect(letters.count == 3)
            #expect(letters.allSatisfy { $0.lastError == "the worker's lease of attempt 1 expired" && $0.attempts == 1 })
            #expect(try await queue.redriveAll(queue: "a") == 2)
            #expect(try await queue.pendingCount(queue: "a") == 2)
            #expect(try await queue.deadLetters().map(\.queue) == ["b"])
            #expect(try await queue.redriveAll() == 1)
            #expect(try await queue.claim(queue: "b", limit: 10, lease: .seconds(5), maxAttempts: 1).map(\.attempt) == [1])
        }
    }

    @Test(arguments: Backend.all)
    func idempotencyKeysArePrunedAfterRetention(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let clock = TestClock()
            let queue = workQueue(database, clock)
            try await queue.enqueue(queue: "hooks", payload: "{}", dedupeKey: "evt-1")
            clock.advance(by: .seconds(3600))
            try await queue.enqueue(queue: "hooks", payload: "{}", dedupeKey: "evt-2")
            #expect(try await queue.pruneDedupeKeys(retention: .seconds(1800), limit: 10) == 1)
            guard case .enqueued = try await queue.enqueue(queue: "hooks", payload: "{}", dedupeKey: "evt-1") else {
                Issue.record("a pruned key is free again"); return
            }
            #expect(try await queue.enqueue(queue: "hooks", payload: "{}", dedupeKey: "evt-2") == .duplicate)
        }
    }
}
