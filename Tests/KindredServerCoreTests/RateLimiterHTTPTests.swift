@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KindredStore
import Logging
import Testing

/// A rate-limited route answers 429 `rate_limited` with `Retry-After`.
@Suite struct RateLimiterHTTPTests {
    @Test func limitedRouteAnswers429WithRetryAfter() async throws {
        let database = try await Database.open(DatabaseConfiguration(url: .sqliteMemory))
        var quiet = Logger(label: "kindred.test")
        quiet.logLevel = .warning
        try await Migrator(StoreMigrations.all).migrate(database, logger: quiet)
        let clock = TestClock()
        let limiter = RateLimiter(database: database, clock: clock)
        let router = Router(context: KindredRequestContext.self)
        router.add(middleware: ErrorMiddleware())
        router.get("/limited") { _, context in
            try await limiter.enforce(key: "test", limit: 2, window: .seconds(30), logger: context.logger)
            return "ok"
        }
        let app = Application(router: router, logger: quiet)
        try await app.test(.router) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/limited", method: .get) { #expect($0.status == .ok) }
            }
            clock.advance(by: .seconds(12))
            try await client.execute(uri: "/limited", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "18")
                #expect(String(buffer: response.body) == envelope("rate_limited", "too many requests; retry after 18 seconds"))
            }
        }
        await database.close()
    }
}
