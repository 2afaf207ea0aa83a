@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `closer.outcomes-reminders` with pinned clocks: enrolment through the creation index, due
/// rows only, at 10:00 in the couple's zone across a DST change, once per couple, key and
/// member, quiet hours through the outbox, bounded pages.
@Suite struct OutcomeRemindersJobTests {
    @Test(arguments: Backend.all)
    func remindersGoOutOnTheirLocalMorningOnceAndOnlyToMembersWhoHaveNotAnswered(backend: Backend) async throws {
        // 15:00 CDT on 5 October 2026; day 30 (4 November) is in CST.
        let clock = TestClock(start: try instant("2026-10-05T20:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("remind-outcomes")
            let sql = app.database.sql
            let a = couple.a.user.id, b = couple.b.user.id
            // A's quiet window: 09:00–12:00 in Chicago.
            try await sql.insert(into: "kindred_notification_settings").columns("user_id", "time_zone", "quiet_start", "quiet_end", "opt_out", "updated_at")
                .values(SQLBind(a), SQLBind("America/Chicago"), SQLBind(540), SQLBind(720), SQLBind("[]"), SQLBind(Int64(0))).run()
            let platform = try Platform.server(database: app.database, clock: app.clock, logger: platformLogger)
            let job = OutcomeReminders.jobName

            // Too fresh to enrol (the five-minute settle delay).
            #expect(try await platform.jobs.runNow(job).message == "enrolled 0 couples, sent 0 check-in reminders")
            clock.set(try instant("2026-10-05T20:06:00Z"))
            // Enrolled; day 0's reminder is an hour after creation (10:00 had passed).
            #expect(try await platform.jobs.runNow(job).message == "enrolled 1 couples, sent 0 check-in reminders")
            #expect(try await Self.schedule(couple.pair.coupleID, on: sql) == ["day_0": try instant("2026-10-05T21:00:00Z").millisecondsSince1970])
            clock.set(try instant("2026-10-05T21:00:00Z"))
            #expect(try await platform.jobs.runNow(job).message == "enrolled 0 couples, sent 2 check-in reminders")
            #expect(try await platform.jobs.runNow(job).message == "enrolled 0 couples, sent 0 check-in reminders")
            // Day 30 at 10:00 CST = 16:00 UTC (it would be 15:00 UTC without the DST change).
            #expect(try await Self.schedule(couple.pair.coupleID, on: sql) == ["day_30": try instant("2026-11-04T16:00:00Z").millisecondsSince1970])

            clock.set(try instant("2026-11-04T07:00:00Z"))
            let cipher = try GamesFixtures.cipher()
            let answered = try await client.call(
                .put, "\(couple.base)/outcomes/day_30", token: try await client.freshToken("remind-outcomes-b@example.com"),
                json: try OverTimeFixtures.answers("thirty", cipher: cipher, coupleID: couple.pair.coupleID)
            )
            #expect(answered.status == .created)
            clock.set(try instant("2026-11-04T15:30:00Z"))
            #expect(try await platform.jobs.runNow(job).message == "enrolled 0 couples, sent 0 check-in reminders")
            clock.set(try instant("2026-11-04T16:00:00Z"))
            #expect(try await platform.jobs.runNow(job).message == "enrolled 0 couples, sent 1 check-in reminders")
            #expect(try await Self.schedule(couple.pair.coupleID, on: sql) == ["day_60": try instant("2026-12-04T16:00:00Z").millisecondsSince1970])

            // A: day 0 and day 30, both inside the quiet window → deferred to 12:00 local.
            let toA = try await OverTimeFixtures.notifications("outcome_reminder", of: a, on: sql)
            #expect(toA.map(\.title) == ["Your first check-in", "Time for a check-in"])
            #expect(toA.map(\.deliverAfter) == [
                try instant("2026-10-05T21:00:00Z").millisecondsSince1970, try instant("2026-11-04T18:00:00Z").millisecondsSince1970,
            ])
            // B answered day 30: only day 0.
            let toB = try await OverTimeFixtures.notifications("outcome_reminder", of: b, on: sql)
            #expect(toB.map(\.title) == ["Your first check-in"])
            #expect(try await DatesFixtures.count("closer_outcome_reminders", where: "couple_id", is: couple.pair.coupleID, on: sql) == 3)
            let events = try await DatesFixtures.events(of: couple.pair.coupleID, on: sql)
            #expect(events.filter { $0 == "closer.outcome_reminder" }.count == 3)

            // A job down for more than the week's grace skips day 60 and catches day 90; after it the row is gone.
            clock.set(try instant("2027-01-03T16:00:00Z"))
            #expect(try await platform.jobs.runNow(job).message == "enrolled 0 couples, sent 2 check-in reminders")
            #expect(try await Self.schedule(couple.pair.coupleID, on: sql).isEmpty)
            #expect(try await DatesFixtures.count("closer_outcome_reminders", where: "day_key", is: "day_60", on: sql) == 0)
            #expect(try await DatesFixtures.count("closer_outcome_reminders", where: "day_key", is: "day_90", on: sql) == 2)
        }
    }

    @Test(arguments: Backend.all)
    func pagesAreBoundedAndOnlyDueRowsAreRead(backend: Backend) async throws {
        // 12:00 CST: 10:00 has passed, so each day-0 reminder is an hour after its couple.
        let clock = TestClock(start: try instant("2026-03-01T18:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            var couples: [DatesCouple] = []
            for index in 0..<3 {
                couples.append(try await client.datesCouple("page-\(index)"))
                clock.advance(by: .seconds(60))
            }
            let sql = app.database.sql
            // A couple whose 90 days are long over is enrolled without a schedule row.
            let old = try await client.datesCouple("page-old")
            try await sql.update("closer_couples").set("created_at", to: try instant("2025-01-01T12:00:00Z").millisecondsSince1970)
                .where("id", .equal, old.pair.coupleID).run()
            clock.set(try instant("2026-03-01T19:00:00Z"))
            #expect(try await OutcomeReminders.enrolPage(limit: 2, now: clock.now(), database: app.database) == 2)
            #expect(try await OutcomeReminders.enrolPage(limit: 2, now: clock.now(), database: app.database) == 2)
            #expect(try await OutcomeReminders.enrolPage(limit: 2, now: clock.now(), database: app.database) == 0)
            #expect(try await DatesFixtures.count("closer_outcome_schedule", where: "next_key", is: "day_0", on: sql) == 3)
            #expect(try await DatesFixtures.count("closer_outcome_schedule", where: "couple_id", is: old.pair.coupleID, on: sql) == 0)

            let platform = try Platform.server(database: app.database, clock: app.clock, logger: platformLogger)
            let events = CloserEvents(outbox: OutcomeReminders.jobOutbox(clock: app.clock, queue: platform.queue), relay: platform.realtime)
            // 19:00: only the first couple's day 0 (created 18:00, reminded an hour later) is due.
            let first = try await OutcomeReminders.remindPage(limit: 2, now: clock.now(), events: events)
            #expect(first.handled == 1 && first.sent == 2)
            clock.set(try instant("2026-03-01T19:02:00Z"))
            let second = try await OutcomeReminders.remindPage(limit: 1, now: clock.now(), events: events)
            #expect(second.handled == 1 && second.sent == 2)
            let third = try await OutcomeReminders.remindPage(limit: 1, now: clock.now(), events: events)
            #expect(third.handled == 1 && third.sent == 2)
            let none = try await OutcomeReminders.remindPage(limit: 1, now: clock.now(), events: events)
            #expect(none.handled == 0 && none.sent == 0)
            for couple in couples {
                #expect(try await Self.schedule(couple.pair.coupleID, on: sql).keys.first == "day_30")
            }
        }
    }

    /// The couple's schedule row: next key → due time (empty when none).
    static func schedule(_ coupleID: String, on sql: any SQLDatabase) async throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for row in try await sql.select().columns("next_key", "next_due_at").from("closer_outcome_schedule").where("couple_id", .equal, coupleID).all() {
            result[try row.decode(column: "next_key", as: String.self)] = try row.decode(column: "next_due_at", as: Int64.self)
        }
        return result
    }
}
