@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// A queue whose claims fail backs off instead of retrying every poll interval, and goes back
/// to work once claims succeed again.
@Suite struct QueueClaimBackoffTests {
    @Test func theWaitDoublesFromThePollIntervalUpToTheCapAndResetsAfterASuccess() {
        var backoff = ClaimBackoff(base: .seconds(1), cap: .seconds(10))
        let waits = (0..<6).map { _ in backoff.failed() }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(backoff.failures == 6)
        #expect(backoff.succeeded() == 6)
        #expect(backoff.succeeded() == 0)
        #expect(backoff.failed() == .seconds(1))
    }

    @Test func aCapBelowTheBaseWaitsTheBase() {
        var backoff = ClaimBackoff(base: .seconds(5), cap: .seconds(1))
        #expect(backoff.failed() == .seconds(5))
        #expect(backoff.failed() == .seconds(5))
    }

    @Test(arguments: Backend.all)
    func aWorkerBacksOffWhileClaimsFailAndResumesWhenTheyWork(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let lines = LogLines()
            let logger = Logger(label: "kindred.test.backoff") { _ in RecordingLogHandler(lines: lines) }
            let queue = WorkQueue(database: database, clock: SystemClock())
            let worker = QueueWorker(
                queue: queue, logger: logger, pollInterval: .milliseconds(10), claimBackoffCap: .seconds(1)
            )
            let handled = Tally()
            try worker.register(QueueHandler(queue: "echo") { item in handled.add(item.payload) })
            try await database.sql.raw("ALTER TABLE kindred_queue_items RENAME TO kindred_queue_items_hidden").run()
            let group = ServiceGroup(
                configuration: .init(services: [worker], gracefulShutdownSignals: [], logger: platformLogger)
            )
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                // Waits for four failed claims (however slow a loaded machine is), then checks the
                // waits they announced doubled, and that each was really waited: the time between
                // two failures is at least the announced wait (sleeping can only take longer).
                let started = ContinuousClock.now
                while lines.matching("claim failed").count < 4, ContinuousClock.now - started < .seconds(60) {
                    try await Task.sleep(for: .milliseconds(5))
                }
                let failures = Array(lines.timedMatching("claim failed").prefix(4))
                try #require(failures.count == 4)
                let announced = ["0.01", "0.02", "0.04", "0.08"]
                for (index, failure) in failures.enumerated() {
                    #expect(failure.line.contains("(\(index + 1) in a row), next attempt in \(announced[index]) seconds"), "\(failure.line)")
                }
                for index in 1..<failures.count {
                    let waited = failures[index].at - failures[index - 1].at
                    #expect(waited >= .milliseconds(10 << (index - 1)), "wait \(index): \(waited)")
                }
                try await database.sql.raw("ALTER TABLE kindred_queue_items_hidden RENAME TO kindred_queue_items").run()
                try await queue.enqueue(queue: "echo", payload: "after the outage")
                let restored = ContinuousClock.now
                while handled.count("after the outage") == 0, ContinuousClock.now - restored < .seconds(30) {
                    try await Task.sleep(for: .milliseconds(10))
                }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(handled.all == ["after the outage": 1])
            #expect(lines.matching("claims work again after").count == 1)
        }
    }
}

/// Log messages collected from concurrent tasks, with the instant each was logged.
final class LogLines: Sendable {
    private let lines = Mutex<[(line: String, at: ContinuousClock.Instant)]>([])

    /// Adds a message.
    func append(_ line: String) { lines.withLock { $0.append((line, ContinuousClock.now)) } }

    /// The messages containing `text`, in order.
    func matching(_ text: String) -> [String] { timedMatching(text).map(\.line) }

    /// The messages containing `text` with their instants, in order.
    func timedMatching(_ text: String) -> [(line: String, at: ContinuousClock.Instant)] {
        lines.withLock { $0.filter { $0.line.contains(text) } }
    }
}

/// A log handler that keeps every message (all levels) in a `LogLines`.
struct RecordingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.message)")
    }
}
