import Foundation
import KindredServer
import KindredStore
import KindredTestSupport
import ServiceLifecycle
import Testing

/// The scheduler and the queue worker as services: woken by an enqueue, stopped by graceful shutdown.
@Suite struct PlatformServiceTests {
    @Test(arguments: Backend.all)
    func workerIsWokenByAnEnqueueAndBothStopOnGracefulShutdown(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            var settings = Platform.Settings()
            settings.queuePollInterval = .seconds(30)  // only the wake-up can make it prompt
            let platform = Platform(database: database, clock: SystemClock(), logger: platformLogger, settings: settings)
            let handled = Tally()
            try platform.worker.register(QueueHandler(queue: "echo") { item in handled.add(item.payload) })
            try platform.jobs.register(Job("test.noop", schedule: "@daily") { _ in "" })
            let group = ServiceGroup(
                configuration: .init(services: platform.services, gracefulShutdownSignals: [], logger: platformLogger)
            )
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await Task.sleep(for: .milliseconds(200))  // let the worker go idle
                let started = ContinuousClock.now
                try await platform.queue.enqueue(queue: "echo", payload: "hello")
                while handled.count("hello") == 0, ContinuousClock.now - started < .seconds(10) {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(handled.all == ["hello": 1])
                #expect(ContinuousClock.now - started < .seconds(5))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(try await platform.queue.pendingCount(queue: "echo") == 0)
        }
    }
}
