import Foundation
import KindredStore
import Logging
import NIOConcurrencyHelpers

/// What a queue's items are handed to, and how the queue retries them.
public struct QueueHandler: Sendable {
    /// The queue's name.
    public var queue: String
    /// Attempts and backoff.
    public var policy: RetryPolicy
    /// How long a claim lasts; it must exceed the handler's longest run, or another worker
    /// may start the same item while the first is still working.
    public var lease: Duration
    /// The most items of this queue handled at once by one worker.
    public var concurrency: Int
    /// Does the work; throwing schedules a retry (or dead-letters after the last attempt).
    public var handle: @Sendable (QueueItem) async throws -> Void
    /// When set, claimed items are handled a batch (lane) per transaction by it, and `handle`
    /// is the fall-back for a lane whose transaction failed.
    public var batch: QueueBatchHandler?

    /// Creates a handler (defaults: 8 attempts, 10 s to 1 h backoff, 5-minute lease, 4 at once).
    public init(
        queue: String, policy: RetryPolicy = RetryPolicy(), lease: Duration = .seconds(300), concurrency: Int = 4,
        batch: QueueBatchHandler? = nil, handle: @escaping @Sendable (QueueItem) async throws -> Void
    ) {
        self.queue = queue
        self.policy = policy
        self.lease = lease
        self.concurrency = max(1, concurrency)
        self.batch = batch
        self.handle = handle
    }
}

/// Runs the registered handlers over their queues: a swift-service-lifecycle service that keeps
/// up to each queue's concurrency of items in flight (claiming more as slots free up), records
/// each outcome, and polls every `pollInterval` when a queue is empty (or sooner when woken by
/// an enqueue). `processAvailable()` runs one deterministic round, for tests and tools.
public final class QueueWorker: Sendable {
    let workQueue: WorkQueue
    let logger: Logger
    let pollInterval: Duration
    /// The longest wait between claims while they keep failing (see `ClaimBackoff`).
    let claimBackoffCap: Duration
    private let handlers = NIOLockedValueBox<[String: QueueHandler]>([:])
    /// Items this process completed, per queue and minute over the last hour (the admin console's throughput).
    package let completions: MinuteCounts
    /// Attempts that failed in this process (retried or dead-lettered), per queue and minute over the last hour.
    package let failures: MinuteCounts

    /// Creates a worker with no handlers. While a queue's claims fail, its loop waits the poll
    /// interval, then twice as long after each further failure, up to `claimBackoffCap`.
    public init(
        queue: WorkQueue, logger: Logger, pollInterval: Duration = .seconds(1), claimBackoffCap: Duration = .seconds(60)
    ) {
        self.workQueue = queue
        self.logger = logger
        self.pollInterval = pollInterval
        self.claimBackoffCap = claimBackoffCap
        self.completions = MinuteCounts(clock: queue.clock)
        self.failures = MinuteCounts(clock: queue.clock)
    }

    /// Adds the handler of a queue.
    /// - Throws: `QueueError.invalidQueueName`, `.duplicateHandler`.
    public func register(_ handler: QueueHandler) throws(QueueError) {
        try WorkQueue.validate(queue: handler.queue)
        let added = handlers.withLockedValue { handlers in
            guard handlers[handler.queue] == nil else { return false }
            handlers[handler.queue] = handler
            return true
        }
        guard added else { throw .duplicateHandler(handler.queue) }
    }

    /// The queues with a handler.
    public var queues: [String] { handlers.withLockedValue { $0.keys.sorted() } }

    /// The registered handlers, by queue name.
    var registeredHandlers: [QueueHandler] {
        handlers.withLockedValue { $0.values.sorted { $0.queue < $1.queue } }
    }

    /// One round: for every queue, claims up to its concurrency of due items, runs them
    /// concurrently and records each outcome.
    /// - Returns: how many items were handled (successfully or not).
    @discardableResult
    public func processAvailable() async -> Int {
        let handlers = handlers.withLockedValue { Array($0.values) }
        return await withTaskGroup(of: Int.self) { group in
            for handler in handlers {
                group.addTask { await self.process(handler) }
            }
            return await group.reduce(0, +)
        }
    }

    /// Claims and runs one batch of `handler`'s queue.
    private func process(_ handler: QueueHandler) async -> Int {
        let items: [QueueItem]
        do {
            items = try await workQueue.claim(
                queue: handler.queue, limit: handler.concurrency, lease: handler.lease,
                maxAttempts: handler.policy.maxAttempts
            )
        } catch {
            logger.error("queue \(handler.queue): claim failed: \(error)")
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            if let batch = handler.batch {
                for lane in batch.lanes(of: items) {
                    group.addTask { await self.deliver(batch: lane, to: handler, with: batch) }
                }
            } else {
                for item in items {
                    group.addTask { await self.deliver(item, to: handler) }
                }
            }
        }
        return items.count
    }

    /// Runs the batch handler on one lane and records its failures; when the lane's
    /// transaction failed as a whole, delivers its items one by one instead.
    func deliver(batch items: [QueueItem], to handler: QueueHandler, with batch: QueueBatchHandler) async {
        let failures: [String: String]
        do {
            failures = try await batch.handle(items)
        } catch {
            logger.warning(
                "queue \(handler.queue): a batch of \(items.count) failed, handling its items one by one: \(error)"
            )
            for item in items {
                await deliver(item, to: handler)
            }
            return
        }
        completions.add(items.count(where: { failures[$0.id] == nil }), to: handler.queue)
        for item in items {
            if let message = failures[item.id] {
                await recordFailure(of: item, message: message, to: handler)
            }
        }
    }

    /// Runs the handler on one item and records success or failure.
    func deliver(_ item: QueueItem, to handler: QueueHandler) async {
        do {
            try await handler.handle(item)
            if try await workQueue.complete(item) {
                completions.add(to: handler.queue)
            } else {
                logger(for: item).warning("finished after its lease expired; another worker may have run it again")
            }
        } catch {
            await recordFailure(of: item, message: String(describing: error), to: handler)
        }
    }

    /// The worker's logger with the item's queue and id.
    private func logger(for item: QueueItem) -> Logger {
        var itemLogger = logger
        itemLogger[metadataKey: "queue"] = "\(item.queue)"
        itemLogger[metadataKey: "item"] = "\(item.id)"
        return itemLogger
    }

    /// Records a failed attempt: a retry, or a dead letter after the last one.
    func recordFailure(of item: QueueItem, message: String, to handler: QueueHandler) async {
        let itemLogger = logger(for: item)
        failures.add(to: handler.queue)
        do {
            switch try await workQueue.fail(item, error: message, policy: handler.policy) {
            case .retry(let at):
                itemLogger.notice("attempt \(item.attempt) failed, retry at \(at.formatted(.iso8601)): \(message)")
            case .deadLettered:
                itemLogger.error("attempt \(item.attempt) failed, dead-lettered: \(message)")
            case .stale:
                itemLogger.warning("failed after its lease expired: \(message)")
            }
        } catch {
            itemLogger.error("cannot record the failure (the lease will expire and it will be retried): \(error)")
        }
    }
}
