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
}
