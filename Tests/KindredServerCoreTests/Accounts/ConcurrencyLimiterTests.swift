@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Synchronization
import Testing

/// The permits around password hashing: never more than the limit at once, and a failing
/// body gives its permit back.
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyLimiterTests {
    @Test func neverMoreThanTheLimitRunAtOnce() async throws {
        let limiter = ConcurrencyLimiter(limit: 2)
        let gauge = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await limiter.run {
                        gauge.enter()
                        try await Task.sleep(for: .milliseconds(15))
                        gauge.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.finished == 12)
        #expect(gauge.peak == 2)
    }

    @Test func aFailingBodyReleasesItsPermit() async throws {
        struct Boom: Error {}
        let limiter = ConcurrencyLimiter(limit: 1)
        for _ in 0..<3 {
            await #expect(throws: Boom.self) { try await limiter.run { () async throws -> Int in throw Boom() } }
        }
        // With a leaked permit this would wait forever (the suite's time limit would fail it).
        let value = try await limiter.run { 42 }
        #expect(value == 42)
    }

    /// Issue 21, item 2: a log-in waiting for a permit goes before every sign-up that waits,
    /// and a full sign-up lane does not refuse a log-in.
    @Test func aWaitingCheckGoesBeforeWaitingNewHashesAndHasItsOwnQueue() async throws {
        let limiter = ConcurrencyLimiter(limit: 1, maxWaiting: 3)
        let order = OrderLog()
        // The first body holds the only permit until everything else is queued (no timing).
        let (release, opener) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await limiter.run(.bulk) { for await _ in release { break } } }
            while await limiter.active < 1 { try await Task.sleep(for: .milliseconds(5)) }
            for index in 0..<3 {
                group.addTask { try await limiter.run(.bulk) { order.append("signup\(index)") } }
                while await limiter.queued < index + 1 { try await Task.sleep(for: .milliseconds(5)) }
            }
            // The sign-up lane is full: one more sign-up is refused at once, a log-in still queues.
            await #expect(throws: KindredError.rateLimited(retryAfterSeconds: 1)) { try await limiter.run(.bulk) { 0 } }
            group.addTask { try await limiter.run(.interactive) { order.append("login") } }
            while await limiter.queued < 4 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(await limiter.active == 1)  // Everything queued while the first still runs.
            opener.yield()
            opener.finish()
            try await group.waitForAll()
        }
        #expect(order.entries == ["login", "signup0", "signup1", "signup2"])
    }
}

/// What ran, in order (shared by the bodies).
private final class OrderLog: Sendable {
    private let lock = Mutex<[String]>([])
    func append(_ entry: String) { lock.withLock { $0.append(entry) } }
    var entries: [String] { lock.withLock { $0 } }
}
