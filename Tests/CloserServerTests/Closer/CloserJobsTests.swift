@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Closer's reminder and purge jobs, run on data the server wrote.
@Suite struct CloserJobsTests {
    @Test(arguments: Backend.all)
    func theDailyReminderGoesOnlyToTheMemberWhoHasNotAnsweredAndOnlyOnce(backend: Backend) async throws {
        // 10:00 in Chicago: the day's reminder time (the evening) is still ahead.
        let clock = TestClock(start: try instant("2026-06-15T15:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let pair = try await client.closerPair("remind")
            let a = pair.inviter, b = pair.acceptor
            let today = client.object(try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: a.accessToken))
            let date = today["date"] as? String ?? ""
            let answered = try await client.call(
                .put, "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers/\(a.user.id)", token: a.accessToken,
                json: CloserFixtures.sealedAnswer()
            )
            #expect(answered.status == .created)
            let platform = try Platform.server(database: application.database, clock: application.clock, logger: platformLogger)
            let early = try await platform.jobs.runNow("closer.daily-reminders")
            #expect(early.message == "sent 0 daily-question reminders")
            // The reminder time is due (moved into the past in the database).
            try await application.database.sql.update("closer_days").set("remind_at", to: application.clock.now().millisecondsSince1970 - 1)
                .where("couple_id", .equal, pair.coupleID).run()
            let run = try await platform.jobs.runNow("closer.daily-reminders")
            #expect(run.message == "sent 1 daily-question reminders")
            let again = try await platform.jobs.runNow("closer.daily-reminders")
            #expect(again.message == "sent 0 daily-question reminders")
            let reminded = try await application.database.sql.select().column("user_id").from("kindred_notifications")
                .where("title", .equal, "Today's question").all().map { try $0.decode(column: "user_id", as: String.self) }
            #expect(reminded == [b.user.id])
        }
    }

    @Test(arguments: Backend.all)
    func expiredInvitesArePurgedAndOpenOnesKept(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let verifier = CloserFixtures.verifier()
            let old = try await client.closerInvite(try await client.signUp("purge-old@example.com").accessToken, verifier: verifier)
            let open = try await client.closerInvite(try await client.signUp("purge-open@example.com").accessToken, verifier: verifier)
            try await application.database.sql.update("closer_invites").set("expires_at", to: application.clock.now().millisecondsSince1970 - 1)
                .where("code", .equal, old).run()
            let platform = try Platform.server(database: application.database, clock: application.clock, logger: platformLogger)
            let run = try await platform.jobs.runNow("closer.purge-invites")
            #expect(run.outcome == .ok)
            #expect(run.message.hasPrefix("deleted 1 expired invites and "))
            let codes = try await application.database.sql.select().column("code").from("closer_invites").all()
                .map { try $0.decode(column: "code", as: String.self) }
            #expect(codes == [open])
        }
    }
}
