import Foundation
import NIOConcurrencyHelpers
import ServiceLifecycle

extension JobScheduler: Service {
    /// Ticks until graceful shutdown: runs what is due, then sleeps until the next run or the
    /// poll interval, whichever is sooner. A run in progress at shutdown finishes (a paging
    /// job stops between pages) if it does so within `settings.shutdownGrace`; one that does
    /// not (its database stopped answering) is left behind and logged. Then leadership is
    /// released.
    public func run() async throws {
        logger.info("job scheduler started", metadata: ["jobs": "\(jobs.map(\.name).joined(separator: ","))"])
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard await tickWithinShutdownGrace() else {
                logger.error("job scheduler: a run was still going \(settings.shutdownGrace) after shutdown began; stopping without it")
                break
            }
            var wait = settings.pollInterval
            if let next = await nextDue() {
                let untilNext = Duration.milliseconds(max(0, next.millisecondsSince1970 - clock.now().millisecondsSince1970))
                wait = max(.milliseconds(20), min(wait, untilNext))
            }
            let pause = wait
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
        }
        await resign()
        logger.info("job scheduler stopped")
    }

    /// Runs one tick (`runDue()`) in a task of its own and waits for it, or, once graceful
    /// shutdown has begun, for at most `settings.shutdownGrace` more.
    /// - Returns: false when the tick was left unfinished.
    func tickWithinShutdownGrace() async -> Bool {
        let tick = Task { _ = await self.runDue() }
        let grace = settings.shutdownGrace
        let answered = NIOLockedValueBox(false)
        let claim = { @Sendable in answered.withLockedValue { done in defer { done = true }; return !done } }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            // An unstructured task inherits the service's graceful-shutdown context.
            let deadline = Task {
                do {
                    try await gracefulShutdown()
                    try await Task.sleep(for: grace)
                } catch {
                    return  // cancelled: the tick finished first
                }
                if claim() { continuation.resume(returning: false) }
            }
            Task {
                await tick.value
                deadline.cancel()
                if claim() { continuation.resume(returning: true) }
            }
        }
    }
}
