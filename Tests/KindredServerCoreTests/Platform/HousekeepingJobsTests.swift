@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The housekeeping jobs the server registers, run against data the server wrote.
@Suite struct HousekeepingJobsTests {
    @Test(arguments: Backend.all)
    func expiredTokensAndSessionsArePurgedInPages(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            _ = try await client.signUp("ada@example.com")
            _ = try await client.signUp("grace@example.com")
            let platform = try Platform.server(
                database: application.database, clock: application.clock, logger: platformLogger
            )
            #expect(platform.jobs.jobs.map(\.name)
                == [
                "accounts.purge-expired-tokens", "admin.purge-sessions", "closer.assign-daily-questions", "closer.challenge-reminders",
                "closer.daily-reminders", "closer.outcomes-reminders", "closer.purge-invites", "closer.unlock-capsules",
                "exeraser.prune-analytics", "integrity.purge-expired", "notifications.purge-sent", "platform.prune-queue-keys", "platform.prune-rate-limits", "realtime.prune-events",
                "soulmate.cleanup-envelopes", "streaksync.prune-scores"])
            let early = try await platform.jobs.runNow("accounts.purge-expired-tokens")
            #expect(early.message == "deleted 0 expired refresh tokens, 0 expired sessions and 0 identity token uses")
            application.clock.advance(by: .seconds(31 * 86_400))  // refresh tokens live 30 days
            let run = try await platform.jobs.runNow("accounts.purge-expired-tokens")
            #expect(run.outcome == .ok)
            #expect(run.message == "deleted 2 expired refresh tokens, 2 expired sessions and 0 identity token uses")
            #expect(try await application.database.sql.count("kindred_refresh_tokens") == 0)
            #expect(try await application.database.sql.count("kindred_sessions") == 0)
            #expect(try await application.database.sql.count("kindred_users") == 2)
        }
    }

    @Test(arguments: Backend.all)
    func rateLimitPruningPagesThroughOldEvents(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { (database: Database) async throws -> Void in
            let clock = TestClock()
            let limiter = RateLimiter(database: database, clock: clock)
            for index in 0..<7 {
                #expect(try await limiter.check(key: "k\(index % 3)", limit: 10, window: .seconds(60)) == .allowed)
            }
            clock.advance(by: .seconds(3600))
            #expect(try await limiter.check(key: "fresh", limit: 10, window: .seconds(60)) == .allowed)
            // Pages of 2 keys: k0 and k1 (5 events, 2 keys), then k2 (2 events, 1 key), then nothing.
            #expect(try await limiter.pruneExpiredPage(maxWindow: .seconds(60), limit: 2) == 7)
            #expect(try await limiter.pruneExpiredPage(maxWindow: .seconds(60), limit: 2) == 3)
            #expect(try await limiter.pruneExpiredPage(maxWindow: .seconds(60), limit: 2) == 0)
            #expect(try await database.sql.count("kindred_rate_limit_events") == 1)
            #expect(try await database.sql.count("kindred_rate_limit_keys") == 1)
        }
    }
}
