import Foundation
@testable import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The limiter's remembered refusals (`RefusalCache`, the fast path of `check`) against the
/// database's own answer: at every pinned time a remembered refusal says what a limiter without
/// one says (`peek` on a fresh limiter), so the fast path cannot drift from the slow one.
@Suite struct RateLimiterRefusalCacheTests {
    @Test(arguments: Backend.all)
    func aRememberedRefusalAnswersExactlyAsTheDatabaseDoes(backend: Backend) async throws {
        try await RateLimiterConformanceTests.withLimiter(backend) { limiter, clock, database async throws in
            let truth = RateLimiter(database: database, clock: clock)
            let check = { try await limiter.check(key: "signup:203.0.113.9", limit: 3, window: .seconds(60)) }
            let expected = { try await truth.peek(key: "signup:203.0.113.9", limit: 3, window: .seconds(60)) }
            #expect(try await check() == .allowed)  // t = 0
            clock.advance(by: .milliseconds(1_500))
            #expect(try await check() == .allowed)  // t = 1.5
            clock.advance(by: .seconds(3))
            #expect(try await check() == .allowed)  // t = 4.5
            // Refused from here until the t = 0 event leaves the window at t = 60.
            for step in [Duration.zero, .milliseconds(1), .seconds(10), .seconds(45), .milliseconds(498)] {  // t = 4.5 … 59.999
                clock.advance(by: step)
                let answer = try await check()
                #expect(answer == (try await expected()))
                guard case .retryAfter = answer else {
                    Issue.record("refused until t = 60, got \(answer)")
                    return
                }
            }
            // t = 59.999 → 60: the database admits again, and so does the limiter.
            clock.advance(by: .milliseconds(1))
            #expect(try await expected() == .allowed)
            #expect(try await check() == .allowed)
            // The t = 1.5 event now bounds the next refusal.
            #expect(try await check() == (try await expected()))
            #expect(try await check() == .retryAfter(seconds: 2))
        }
    }

    @Test(arguments: Backend.all)
    func theRefusalIsRememberedAndResetForgetsIt(backend: Backend) async throws {
        try await RateLimiterConformanceTests.withLimiter(backend) { limiter, clock, database async throws in
            #expect(try await limiter.check(key: "k", limit: 1, window: .seconds(30)) == .allowed)
            #expect(try await limiter.check(key: "k", limit: 1, window: .seconds(30)) == .retryAfter(seconds: 30))
            // Behind the limiter's back (what no code path does): it answers from memory, without
            // the database, until the refusal would have ended.
            try await database.sql.delete(from: "kindred_rate_limit_events").run()
            clock.advance(by: .seconds(10))
            #expect(try await limiter.check(key: "k", limit: 1, window: .seconds(30)) == .retryAfter(seconds: 20))
            // Another limit on the same key is not answered from it.
            #expect(try await limiter.check(key: "k", limit: 2, window: .seconds(30)) == .allowed)
            // `reset` forgets it.
            try await limiter.reset(key: "k")
            #expect(try await limiter.check(key: "k", limit: 1, window: .seconds(30)) == .allowed)
        }
    }

    @Test func theCacheKeepsAtMostItsCapacityAndDropsEndedRefusalsFirst() {
        let cache = RefusalCache()
        for index in 0..<RefusalCache.capacity {
            cache.remember(key: "k\(index)", limit: 1, windowMS: 1_000, until: index < 10 ? 50 : 5_000, now: 0)
        }
        cache.remember(key: "full", limit: 1, windowMS: 1_000, until: 5_000, now: 0)
        #expect(cache.refusedUntil(key: "full", limit: 1, windowMS: 1_000, now: 0) == nil)  // Full: not remembered.
        cache.remember(key: "later", limit: 1, windowMS: 1_000, until: 5_000, now: 100)  // Ten have ended by t = 100.
        #expect(cache.refusedUntil(key: "later", limit: 1, windowMS: 1_000, now: 100) == 5_000)
        #expect(cache.refusedUntil(key: "k5", limit: 1, windowMS: 1_000, now: 100) == nil)
        #expect(cache.refusedUntil(key: "k500", limit: 1, windowMS: 1_000, now: 100) == 5_000)
    }
}
