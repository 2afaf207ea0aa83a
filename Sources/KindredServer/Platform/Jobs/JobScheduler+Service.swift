import Foundation
import ServiceLifecycle

extension JobScheduler: Service {
    /// Ticks until graceful shutdown: runs what is due, then sleeps until the next run or the
    /// poll interval, whichever is sooner. A run in progress at shutdown finishes (a paging
    /// job stops between pages); then leadership is released.
    public func run() async throws {
        logger.info("job scheduler started", metadata: ["jobs": "\(jobs.map(\.name).joined(separator: ","))"])
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await runDue()
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
}
