@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `closer.challengeReminderHour`: the challenge-day reminder goes out at that local hour in
/// the instance's zone (08:00 here, across the end of DST in Chicago), not at 19:00.
@Suite struct ChallengesReminderHourTests {
    @Test(arguments: Backend.all)
    func theReminderFollowsTheConfiguredHour(backend: Backend) async throws {
        // 10:00 CDT on Saturday 2026-10-31: day 1; its 08:00 has passed, so the first reminder is
        // day 2's 08:00 CST (14:00Z, after the change), then day 3's.
        let clock = TestClock(start: try instant("2026-10-31T15:00:00Z"))
        let closer = {
            var settings = CloserSettings()
            settings.challengeReminderHour = 8
            return settings
        }()
        try await TestApplication.run(on: backend, clock: clock, closer: closer) { app, client in
            let couple = try await client.datesCouple("challenge-hour")
            let id = try await client.joinedChallenge(couple, "tidy-together-3", token: couple.a.accessToken)
            let sql = app.database.sql
            func remindAt() async throws -> Int64? {
                try await sql.select().column("remind_at").from("closer_challenge_instances").where("id", .equal, id).first()?
                    .decode(column: "remind_at", as: Int64?.self)
            }
            #expect(try await remindAt() == (try instant("2026-11-01T14:00:00Z")).millisecondsSince1970)
            let platform = try Platform.server(database: app.database, clock: app.clock, logger: platformLogger, closer: closer)
            func run(at time: String) async throws -> String {
                clock.set(try instant(time))
                return try await platform.jobs.runNow(ChallengeReminders.jobName).message
            }
            // 19:00 CDT on day 1 (the default hour) sends nothing; 08:00 CST on day 2 reminds both.
            #expect(try await run(at: "2026-11-01T00:00:00Z") == "sent 0 challenge reminders for 0 challenges")
            #expect(try await run(at: "2026-11-01T13:59:00Z") == "sent 0 challenge reminders for 0 challenges")
            #expect(try await run(at: "2026-11-01T14:00:00Z") == "sent 2 challenge reminders for 1 challenges")
            #expect(try await remindAt() == (try instant("2026-11-02T14:00:00Z")).millisecondsSince1970)
            let days = try await sql.select().column("day").from("closer_challenge_reminders")
                .where("instance_id", .equal, id).all().map { try $0.decode(column: "day", as: Int.self) }
            #expect(days == [2, 2])
        }
    }
}
