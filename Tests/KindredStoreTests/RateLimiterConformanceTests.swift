import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The rolling-window rate limiter, on every backend, under a test clock.
@Suite struct RateLimiterConformanceTests {
    static func withLimiter(
        _ backend: Backend, _ body: (RateLimiter, TestClock, Database) async throws -> Void
    ) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(StoreMigrations.all).migrate(database)
            let clock = TestClock()
            try await body(RateLimiter(database: database, clock: clock), clock, database)
        }
    }

    @Test(arguments: Backend.all)
    func allowsLimitThenRetryAfterExactSeconds(backend: Backend) async throws {
        try await Self.withLimiter(backend) { limiter, clock, _ async throws in
            for _ in 0..<3 {
                #expect(try await limiter.check(key: "invite:alice", limit: 3, window: .seconds(60)) == .allowed)
            }
            #expect(try await limiter.check(key: "invite:alice", limit: 3, window: .seconds(60)) == .retryAfter(seconds: 60))
            clock.advance(by: .seconds(10))
            #expect(try await limiter.check(key: "invite:alice", limit: 3, window: .seconds(60)) == .retryAfter(seconds: 50))
            clock.advance(by: .milliseconds(49_500))
            // 0.5 s left rounds up to 1: a client that waits Retry-After is never early.
            #expect(try await limiter.check(key: "invite:alice", limit: 3, window: .seconds(60)) == .retryAfter(seconds: 1))
            clock.advance(by: .milliseconds(500))
            #expect(try await limiter.check(key: "invite:alice", limit: 3, window: .seconds(60)) == .allowed)
        }
    }

    @Test(arguments: Backend.all)
    func windowRollsOneEventAtATime(backend: Backend) async throws {
        try await Self.withLimiter(backend) { limiter, clock, _ async throws in
            let check = { try await limiter.check(key: "k", limit: 3, window: .seconds(60)) }
            #expect(try await check() == .allowed)  // t = 0
            clock.advance(by: .seconds(10))
            #expect(try await check() == .allowed)  // t = 10
            clock.advance(by: .seconds(10))
            #expect(try await check() == .allowed)  // t = 20
            clock.advance(by: .seconds(10))
            #expect(try await check() == .retryAfter(seconds: 30))  // t = 30, the t = 0 event expires at 60
            clock.advance(by: .seconds(30))
            #expect(try await check() == .allowed)  // t = 60: only the t = 0 event left the window
            #expect(try await check() == .retryAfter(seconds: 10))  // t = 10 expires at 70
            clock.advance(by: .seconds(10))
            #expect(try await check() == .allowed)
        }
    }

    @Test(arguments: Backend.all)
    func refusedChecksAreNotRecorded(backend: Backend) async throws {
        try await Self.withLimiter(backend) { limiter, clock, _ async throws in
            #expect(try await limiter.check(key: "k", limit: 1, window: .seconds(5)) == .allowed)
            for second in 1...4 {
                clock.advance(by: .seconds(1))
                #expect(try await limiter.check(key: "k", limit: 1, window: .seconds(5)) == .retryAfter(seconds: 5 - second))
            }
            clock.advance(by: .seconds(1))
            #expect(try await limiter.check(key: "k", limit: 1, window: .seconds(5)) == .allowed)
        }
    }

    @Test(arguments: Backend.all)
    func keysAreIndependent(backend: Backend) async throws {
        try await Self.withLimiter(backend) { limiter, _, _ async throws in
            #expect(try await limiter.check(key: "a", limit: 1, window: .seconds(60)) == .allowed)
            #expect(try await limiter.check(key: "b", limit: 1, window: .seconds(60)) == .allowed)
            #expect(try await limiter.check(key: "a", limit: 1, window: .seconds(60)) == .retryAfter(seconds: 60))
        }
    }

    @Test(arguments: Backend.all)
    func concurrentChecksNeverOvershoot(backend: Backend) async throws {
        try await Self.withLimiter(backend) { limiter, _, _ async throws in
            let decisions = try await withThrowingTaskGroup(of: RateLimiter.Decision.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await limiter.check(key: "hot", limit: 5, window: .seconds(60)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(decisions.filter { $0 == .allowed }.count == 5)
            #expect(decisions.filter { $0 == .retryAfter(seconds: 60) }.count == 11)
        }
    }

    @Test(arguments: Backend.all)
    func pruningDeletesExpiredWindowsOnly(backend: Backend) async throws {
        try await Self.withLimiter(backend) { limiter, clock, database async throws in
            for key in ["a", "b", "c"] {
                #expect(try await limiter.check(key: key, limit: 5, window: .seconds(60)) == .allowed)
            }
            clock.advance(by: .seconds(30))
            #expect(try await limiter.check(key: "a", limit: 5, window: .seconds(60)) == .allowed)
            clock.advance(by: .seconds(31))
            // The three t = 0 events are older than 60 s; a's t = 30 event is not.
            #expect(try await limiter.pruneExpired(maxWindow: .seconds(60)) == 3)
            #expect(try await database.sql.count("kindred_rate_limit_events") == 1)
            #expect(try await database.sql.count("kindred_rate_limit_keys") == 1)
            #expect(try await limiter.pruneExpired(maxWindow: .seconds(60)) == 0)
        }
    }

    @Test func invalidArgumentsAreTypedErrors() async throws {
        try await Self.withLimiter(.sqlite) { limiter, _, _ async throws in
            await #expect(throws: KindredStoreError.invalidRateLimit("limit must be at least 1, not 0")) {
                try await limiter.check(key: "k", limit: 0, window: .seconds(1))
            }
            await #expect(throws: KindredStoreError.invalidRateLimit("the window must be at least 1 ms")) {
                try await limiter.check(key: "k", limit: 1, window: .zero)
            }
            await #expect(throws: KindredStoreError.invalidRateLimit("the key must be 1 to 200 bytes")) {
                try await limiter.check(key: String(repeating: "x", count: 201), limit: 1, window: .seconds(1))
            }
        }
    }

    @Test(arguments: Backend.all)
    func peekCountsOnlyRecordedEventsAndResetForgetsThem(backend: Backend) async throws {
        try await Self.withLimiter(backend) { limiter, clock, _ async throws in
            let peek = { try await limiter.peek(key: "login:ada", limit: 2, window: .seconds(900)) }
            #expect(try await peek() == .allowed)
            #expect(try await peek() == .allowed)  // peeking records nothing
            try await limiter.record(key: "login:ada")
            clock.advance(by: .seconds(100))
            #expect(try await peek() == .allowed)
            try await limiter.record(key: "login:ada")
            #expect(try await peek() == .retryAfter(seconds: 800))
            #expect(try await limiter.peek(key: "login:bob", limit: 2, window: .seconds(900)) == .allowed)
            clock.advance(by: .seconds(800))
            #expect(try await peek() == .allowed)  // the first event left the window
            try await limiter.record(key: "login:ada")
            #expect(try await peek() == .retryAfter(seconds: 100))
            try await limiter.reset(key: "login:ada")
            #expect(try await peek() == .allowed)
            await #expect(throws: KindredStoreError.invalidRateLimit("the key must be 1 to 200 bytes")) {
                try await limiter.record(key: "")
            }
            await #expect(throws: KindredStoreError.invalidRateLimit("limit must be at least 1, not 0")) {
                try await limiter.peek(key: "k", limit: 0, window: .seconds(1))
            }
        }
    }
}
