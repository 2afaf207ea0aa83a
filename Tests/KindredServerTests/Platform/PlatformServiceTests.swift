import Foundation
import KindredServer
import KindredStore
import KindredTestSupport
import ServiceLifecycle
import Synchronization
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
                while handled.count("hello") == 0, ContinuousClock.now - started < .seconds(20) {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(handled.all == ["hello": 1])
                #expect(ContinuousClock.now - started < .seconds(15))  // the poll interval is 30 s; a loaded CI machine is slow
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(try await platform.queue.pendingCount(queue: "echo") == 0)
        }
    }

    @Test func theServiceKeepsAQueuesConcurrencyOfItemsInFlight() async throws {
        try await withMigratedDatabase(.sqlite) { database in
            let platform = Platform(database: database, clock: SystemClock(), logger: platformLogger)
            let gauge = Gauge()
            try platform.worker.register(QueueHandler(queue: "slow", concurrency: 3) { _ in
                gauge.enter()
                try await Task.sleep(for: .milliseconds(20))
                gauge.leave()
            })
            try await database.transaction { sql in
                for number in 0..<20 { try await platform.queue.enqueue(queue: "slow", payload: "\(number)", on: sql) }
            }
            let group = ServiceGroup(
                configuration: .init(services: [platform.worker], gracefulShutdownSignals: [], logger: platformLogger)
            )
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let started = ContinuousClock.now
                while gauge.finished < 20, ContinuousClock.now - started < .seconds(60) {
                    try await Task.sleep(for: .milliseconds(10))
                }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(gauge.finished == 20)
            #expect(gauge.peak == 3)
            #expect(try await platform.queue.pendingCount(queue: "slow") == 0)
        }
    }
}

/// Counts handlers running at once and finished.
final class Gauge: Sendable {
    private let state = Mutex<(running: Int, peak: Int, finished: Int)>((0, 0, 0))

    /// A handler started.
    func enter() { state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) } }
    /// A handler finished.
    func leave() { state.withLock { $0.running -= 1; $0.finished += 1 } }
    /// The most handlers that ran at once.
    var peak: Int { state.withLock { $0.peak } }
    /// Handlers finished.
    var finished: Int { state.withLock { $0.finished } }
}
