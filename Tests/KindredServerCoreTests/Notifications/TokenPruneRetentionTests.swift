@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The pruned-token counts (`kindred_push_token_prunes`, one row per app, transport and UTC day)
/// are kept 90 days by `notifications.purge-sent`: the push page shows 30, so older days go.
@Suite struct TokenPruneRetentionTests {
    static let day: Int64 = 86_400_000

    /// The days (in days before today, UTC) that still have a count.
    static func daysLeft(today: Int64, on sql: any SQLDatabase) async throws -> [Int64] {
        try await sql.select().column("day").from("kindred_push_token_prunes").orderBy("day").all()
            .map { (today - (try $0.decode(column: "day", as: Int64.self))) / day }
    }

    @Test(arguments: Backend.all)
    func countsOlderThanNinetyDaysArePurgedWithTheSentNotifications(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { (database: Database) async throws -> Void in
            // 15:30 UTC: "older than 90 days" counts whole UTC days back from today's start.
            let clock = TestClock(start: try instant("2026-05-01T15:30:00Z"))
            let now = clock.now().millisecondsSince1970
            let today = now - now % Self.day
            // Day 0 (today), 30, 89, 90 (the oldest kept), 91 and 200 days back; two transports on day 91.
            for (back, transport) in [(0, "apns"), (30, "apns"), (89, "fcm"), (90, "apns"), (91, "apns"), (91, "fcm"), (200, "fcm")] {
                try await NotificationsSchema.recordPrunes(
                    app: "closer", transport: transport, count: 2, now: now - Int64(back) * Self.day, on: database.sql
                )
            }
            #expect(try await Self.daysLeft(today: today, on: database.sql) == [200, 91, 91, 90, 89, 30, 0])

            let platform = Platform(database: database, clock: clock, logger: platformLogger)
            try NotificationsQueue.registerJobs(on: platform)
            let run = try await platform.jobs.runNow("notifications.purge-sent")
            #expect(run.outcome == .ok)
            #expect(run.message == "deleted 0 notifications older than 30 days and 3 pruned-token counts older than 90 days")
            #expect(try await Self.daysLeft(today: today, on: database.sql) == [90, 89, 30, 0])

            // Later the same day nothing more goes; the next day, day 90 has become day 91.
            clock.advance(by: .seconds(8 * 3600))
            #expect(try await NotificationsQueue.purgePruneCounts(database: database, clock: clock, retention: .seconds(90 * 86_400)) == 0)
            clock.advance(by: .seconds(1 * 3600))
            #expect(try await platform.jobs.runNow("notifications.purge-sent").message
                == "deleted 0 notifications older than 30 days and 1 pruned-token counts older than 90 days")
            #expect(try await Self.daysLeft(today: today, on: database.sql) == [89, 30, 0])
        }
    }
}
