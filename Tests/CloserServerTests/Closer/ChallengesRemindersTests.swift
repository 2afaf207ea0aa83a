@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `closer.challenge-reminders` with pinned clocks: 19:00 in the couple's zone across the end of
/// daylight saving time in Chicago (2026-11-01), only to partners who have not done the day,
/// once per instance, partner and day.
@Suite struct ChallengesRemindersTests {
    @Test(arguments: Backend.all)
    func theReminderFollowsLocalSevenPmAcrossTheDSTChange(backend: Backend) async throws {
        // 10:00 CDT on Saturday 2026-10-31: day 1. 19:00 CDT is 00:00Z; after the change, 19:00 CST is 01:00Z.
        let clock = TestClock(start: try instant("2026-10-31T15:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("challenge-remind")
            let (a, b) = (couple.a, couple.b)
            let id = try await client.joinedChallenge(couple, "tidy-together-3", token: a.accessToken)
            let sql = app.database.sql
            func remindAt() async throws -> Int64? {
                try await sql.select().column("remind_at").from("closer_challenge_instances").where("id", .equal, id).first()?
                    .decode(column: "remind_at", as: Int64?.self)
            }
            #expect(try await remindAt() == (try instant("2026-11-01T00:00:00Z")).millisecondsSince1970)
            let platform = try Platform.server(database: app.database, clock: app.clock, logger: platformLogger)
            func run(at time: String) async throws -> String {
                clock.set(try instant(time))
                return try await platform.jobs.runNow(ChallengeReminders.jobName).message
            }

            #expect(try await run(at: "2026-10-31T23:59:00Z") == "sent 0 challenge reminders for 0 challenges")
            #expect(try await run(at: "2026-11-01T00:00:00Z") == "sent 2 challenge reminders for 1 challenges")
            #expect(try await run(at: "2026-11-01T00:05:00Z") == "sent 0 challenge reminders for 0 challenges")
            #expect(try await remindAt() == (try instant("2026-11-02T01:00:00Z")).millisecondsSince1970)

            // Day 2 (Sunday, CST): A does the step; a fixed -5 h offset would remind at 00:00Z.
            clock.set(try instant("2026-11-01T18:00:00Z"))
            #expect(try await client.markDay(couple, id, 2, token: try await client.freshToken(a)).status == .ok)
            #expect(try await run(at: "2026-11-02T00:30:00Z") == "sent 0 challenge reminders for 0 challenges")
            #expect(try await run(at: "2026-11-02T01:00:00Z") == "sent 1 challenge reminders for 1 challenges")
            // Idempotent: the same day's reminder due again sends nothing more.
            try await sql.update("closer_challenge_instances").set("remind_at", to: clock.now().millisecondsSince1970 - 1).where("id", .equal, id).run()
            #expect(try await run(at: "2026-11-02T01:10:00Z") == "sent 0 challenge reminders for 1 challenges")
            #expect(try await remindAt() == (try instant("2026-11-03T01:00:00Z")).millisecondsSince1970)
            #expect(try await ChallengesFixtures.pushes(of: a.user.id, on: sql).filter { $0.hasPrefix("Day ") } == [
                "Day 1: Set a fifteen-minute timer and tidy one room together with music on.",
            ])
            #expect(try await ChallengesFixtures.pushes(of: b.user.id, on: sql).filter { $0.hasPrefix("Day ") } == [
                "Day 1: Set a fifteen-minute timer and tidy one room together with music on.",
                "Day 2: Pick the drawer or shelf you both avoid and sort it together.",
            ])

            // The last day reminds, then the reminders stop.
            #expect(try await run(at: "2026-11-03T01:00:00Z") == "sent 2 challenge reminders for 1 challenges")
            #expect(try await remindAt() == nil)
            #expect(try await DatesFixtures.count("closer_challenge_reminders", where: "instance_id", is: id, on: sql) == 5)
            #expect(try await DatesFixtures.events(of: couple.pair.coupleID, on: sql).filter { $0 == "closer.challenge_reminder" }.count == 5)
        }
    }

    @Test(arguments: Backend.all)
    func aLateRunRemindsAboutTodayOnlyAndALeftChallengeIsNotReminded(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-06-15T15:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("challenge-late")
            let kept = try await client.joinedChallenge(couple, "gratitude-7", token: couple.a.accessToken)
            let left = try await client.joinedChallenge(couple, "listen-5", token: couple.b.accessToken)
            #expect(try await client.call(.delete, "\(couple.base)/challenges/\(left)", token: couple.a.accessToken).status == .ok)
            let platform = try Platform.server(database: app.database, clock: app.clock, logger: platformLogger)
            // The job was down for two days: at 20:00 CDT on day 3 it reminds about day 3 only.
            clock.set(try instant("2026-06-18T01:00:00Z"))
            #expect(try await platform.jobs.runNow(ChallengeReminders.jobName).message == "sent 2 challenge reminders for 1 challenges")
            let days = try await app.database.sql.select().column("day").from("closer_challenge_reminders")
                .where("instance_id", .equal, kept).all().map { try $0.decode(column: "day", as: Int.self) }
            #expect(days == [3, 3])
            #expect(try await DatesFixtures.count("closer_challenge_reminders", where: "instance_id", is: left, on: app.database.sql) == 0)
        }
    }
}
