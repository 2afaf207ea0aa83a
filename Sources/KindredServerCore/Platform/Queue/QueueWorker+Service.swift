import Foundation
import NIOConcurrencyHelpers
import ServiceLifecycle

extension QueueWorker: Service {
    /// Runs one loop per registered queue until graceful shutdown; items in flight at shutdown
    /// finish (and are recorded) before it returns. Handlers must be registered before it starts;
    /// with none it simply waits for shutdown (a service that returned early would stop the server).
    public func run() async throws {
        let handlers = registeredHandlers
        logger.info("queue worker started", metadata: ["queues": "\(handlers.map(\.queue).joined(separator: ","))"])
        await withDiscardingTaskGroup { group in
            for handler in handlers {
                group.addTask { await self.runQueue(handler) }
            }
        }
        try? await gracefulShutdown()
        logger.info("queue worker stopped")
    }

    /// Keeps up to `handler.concurrency` items of one queue in flight: claims as many as there
    /// are free slots (with a batch handler: a full claim once every lane of the previous one has
    /// finished, split into lanes of one transaction each), waits for a slot when full, and for
    /// a wake-up or the poll interval when the queue has nothing due.
    private func runQueue(_ handler: QueueHandler) async {
        let inFlight = NIOLockedValueBox(0)
        let slotFreed = WakeSignal()
        let interval = pollInterval
        let newWork = workQueue.signal
        var backoff = ClaimBackoff(base: interval, cap: claimBackoffCap)
        await withDiscardingTaskGroup { group in
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                let busy = inFlight.withLockedValue { $0 }
                let free = handler.concurrency - busy
                // With a batch handler, claims are made in rounds: the lanes of one claim hold
                // disjoint keys, but a claim made while lanes are still running would hold their
                // keys (users) too and wait on their locks.
                guard free > 0, handler.batch == nil || busy == 0 else {
                    await cancelWhenGracefulShutdown { await slotFreed.wait(upTo: interval) }
                    continue
                }
                let items: [QueueItem]
                do {
                    items = try await workQueue.claim(
                        queue: handler.queue, limit: free, lease: handler.lease, maxAttempts: handler.policy.maxAttempts
                    )
                } catch {
                    // Back off while claims fail, without waking for enqueues (they would fail too).
                    let delay = backoff.failed()
                    logger.error(
                        "queue \(handler.queue): claim failed (\(backoff.failures) in a row), next attempt in \(delay): \(error)"
                    )
                    await cancelWhenGracefulShutdown { try? await Task.sleep(for: delay) }
                    continue
                }
                let failedBefore = backoff.succeeded()
                if failedBefore > 0 {
                    logger.notice("queue \(handler.queue): claims work again after \(failedBefore) failed")
                }
                inFlight.withLockedValue { $0 += items.count }
                if let batch = handler.batch {
                    for lane in batch.lanes(of: items) {
                        group.addTask {
                            await self.deliver(batch: lane, to: handler, with: batch)
                            inFlight.withLockedValue { $0 -= lane.count }
                            slotFreed.signal()
                        }
                    }
                } else {
                    for item in items {
                        group.addTask {
                            await self.deliver(item, to: handler)
                            inFlight.withLockedValue { $0 -= 1 }
                            slotFreed.signal()
                        }
                    }
                }
                if items.count < free {
                    // Nothing more is due: wait for an enqueue in this process or the next poll.
                    await cancelWhenGracefulShutdown { await newWork.wait(upTo: interval) }
                }
            }
        }
    }
}
