@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The daily-question reminder goes out at 20:00 in the couple's own zone (the first after the
/// assignment), with pinned clocks: Tokyo and Chicago couples on the same UTC day, and a
/// New York couple across the spring-forward change.
@Suite struct CloserReminderZoneTests {
    @Test(arguments: Backend.all)
    func eachCoupleIsRemindedAtTwentyHundredInItsOwnZone(backend: Backend) async throws {
        // 10:00 in Tokyo (JST, +9), 20:00 the day before in Chicago (CDT, −5).
        let clock = TestClock(start: try instant("2026-06-15T01:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let tokyo = try await client.closerPair("zone-tokyo")
            let chicago = try await client.closerPair("zone-chicago")
            let moved = try await client.call(
                .patch, "/v1/closer/couples/\(tokyo.coupleID)/settings", token: tokyo.inviter.accessToken, json: #"{"timeZone":"Asia/Tokyo"}"#
            )
            #expect(moved.status == .ok)
            for pair in [tokyo, chicago] {
                let today = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken)
                #expect(today.status == .created || today.status == .ok)
            }
            // Tokyo: the period began 2026-06-14 23:00 JST; its reminder is 2026-06-15 20:00 JST.
            #expect(try await Self.remindAt(tokyo.coupleID, app) == [try instant("2026-06-15T11:00:00Z").millisecondsSince1970])
            // Chicago: the period began 2026-06-13 23:00 CDT; its reminder (06-14 20:00 CDT) is now.
            #expect(try await Self.remindAt(chicago.coupleID, app) == [try instant("2026-06-15T01:00:00Z").millisecondsSince1970])

            let platform = try Platform.server(database: app.database, clock: clock, logger: platformLogger)
            // One day handled (the job counts days), both Chicago members reminded.
            #expect(try await platform.jobs.runNow("closer.daily-reminders").message == "sent 1 daily-question reminders")
            #expect(try await Self.reminded(app).sorted() == [chicago.inviter.user.id, chicago.acceptor.user.id].sorted())

            // One minute before 20:00 in Tokyo: nothing; at 20:00: both Tokyo members, once.
            clock.set(try instant("2026-06-15T10:59:00Z"))
            #expect(try await platform.jobs.runNow("closer.daily-reminders").message == "sent 0 daily-question reminders")
            clock.set(try instant("2026-06-15T11:00:00Z"))
            #expect(try await platform.jobs.runNow("closer.daily-reminders").message == "sent 1 daily-question reminders")
            #expect(try await platform.jobs.runNow("closer.daily-reminders").message == "sent 0 daily-question reminders")
            #expect(try await Self.reminded(app).sorted() == [
                chicago.inviter.user.id, chicago.acceptor.user.id, tokyo.inviter.user.id, tokyo.acceptor.user.id,
            ].sorted())
        }
    }

    @Test(arguments: Backend.all)
    func theReminderFollowsTheZoneAcrossSpringForward(backend: Backend) async throws {
        // Saturday 2026-03-07 12:00 EST; clocks move from 02:00 EST to 03:00 EDT on 03-08.
        let clock = TestClock(start: try instant("2026-03-07T17:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let pair = try await client.closerPair("zone-dst")
            _ = try await client.call(
                .patch, "/v1/closer/couples/\(pair.coupleID)/settings", token: pair.inviter.accessToken, json: #"{"timeZone":"America/New_York"}"#
            )
            _ = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken)
            // The period of 03-06 23:00 EST: the reminder is 03-07 20:00 EST = 01:00Z on 03-08.
            #expect(try await Self.remindAt(pair.coupleID, app) == [try instant("2026-03-08T01:00:00Z").millisecondsSince1970])

            // The job assigns the next period (03-07 23:00 EST = 04:00Z); its reminder is
            // 03-08 20:00 EDT = 00:00Z on 03-09, not 01:00Z.
            clock.set(try instant("2026-03-08T04:00:00Z"))
            let platform = try Platform.server(database: app.database, clock: clock, logger: platformLogger)
            #expect(try await platform.jobs.runNow("closer.assign-daily-questions").outcome == .ok)
            let days = try await app.database.sql.select().columns("date_key", "remind_at").from("closer_days")
                .where("couple_id", .equal, pair.coupleID).orderBy("date_key").all()
            let last = try #require(days.last)
            #expect(try last.decode(column: "date_key", as: String.self) == "2026-03-07")
            #expect(try last.decode(column: "remind_at", as: Int64?.self) == (try instant("2026-03-09T00:00:00Z")).millisecondsSince1970)
            clock.set(try instant("2026-03-08T23:59:00Z"))
            _ = try await platform.jobs.runNow("closer.daily-reminders")
            let before = try await Self.reminded(app).count
            clock.set(try instant("2026-03-09T00:00:00Z"))
            #expect(try await platform.jobs.runNow("closer.daily-reminders").message == "sent 1 daily-question reminders")
            #expect(try await Self.reminded(app).count == before + 2)
        }
    }

    /// The pending reminder times of the couple's days.
    static func remindAt(_ coupleID: String, _ app: TestApplication) async throws -> [Int64] {
        try await app.database.sql.select().column("remind_at").from("closer_days").where("couple_id", .equal, coupleID)
            .all().compactMap { try $0.decode(column: "remind_at", as: Int64?.self) }
    }

    /// Who got a daily-question reminder.
    static func reminded(_ app: TestApplication) async throws -> [String] {
        try await app.database.sql.select().column("user_id").from("kindred_notifications").where("type", .equal, "daily_question")
            .all().map { try $0.decode(column: "user_id", as: String.self) }
    }
}
