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

/// `notifications.purge-sent` over Closer's notifications: sent, skipped and failed ones older
/// than 30 days go, a page of 500 at a time; queued ones and anything newer stay.
@Suite struct NotificationsPurgeSentTests {
    @Test(arguments: Backend.all)
    func purgesOnlyFinishedNotificationsOlderThanThirtyDays(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-05-01T12:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let pair = try await client.closerPair("purge-sent")
            let sql = app.database.sql
            // What the server itself queued (the invite's and the acceptance's records).
            let served = try await Self.ids(on: sql)
            let now = clock.now().millisecondsSince1970
            let day: Int64 = 86_400_000
            // 1,203 finished notifications 31 days old (three pages), and one of each kind that stays.
            var doomed = 0
            for (state, count) in [("sent", 1_001), ("skipped", 101), ("failed", 101)] {
                try await Self.insert(count, state: state, createdAt: now - 31 * day, user: pair.inviter.user.id, on: sql)
                doomed += count
            }
            let oldQueued = try await Self.insert(1, state: "queued", createdAt: now - 40 * day, user: pair.inviter.user.id, on: sql)
            let oldSending = try await Self.insert(1, state: "sending", createdAt: now - 40 * day, user: pair.inviter.user.id, on: sql)
            let recentSent = try await Self.insert(1, state: "sent", createdAt: now - 29 * day, user: pair.acceptor.user.id, on: sql)
            // Exactly 30 days old is not "older than 30 days".
            let boundary = try await Self.insert(1, state: "sent", createdAt: now - 30 * day, user: pair.acceptor.user.id, on: sql)
            #expect(doomed == 1_203)

            let platform = try Platform.server(database: app.database, clock: clock, logger: platformLogger)
            let run = try await platform.jobs.runNow("notifications.purge-sent")
            #expect(run.outcome == .ok)
            #expect(run.message == "deleted 1203 notifications older than 30 days and 0 pruned-token counts older than 90 days")
            let left = try await Self.ids(on: sql)
            #expect(left == Set(oldQueued + oldSending + recentSent + boundary).union(served))
            #expect(served.count == 2)

            let again = try await platform.jobs.runNow("notifications.purge-sent")
            #expect(again.message == "deleted 0 notifications older than 30 days and 0 pruned-token counts older than 90 days")

            // A day later the boundary row has aged past 30 days.
            clock.advance(by: .seconds(86_400))
            #expect(try await platform.jobs.runNow("notifications.purge-sent").message == "deleted 1 notifications older than 30 days and 0 pruned-token counts older than 90 days")
            #expect(try await Self.ids(on: sql) == Set(oldQueued + oldSending + recentSent).union(served))
        }
    }

    /// Inserts `count` notifications of `user` in `state`, in multi-row statements; returns their ids.
    @discardableResult
    static func insert(_ count: Int, state: String, createdAt: Int64, user: String, on sql: any SQLDatabase) async throws -> [String] {
        var ids: [String] = []
        for start in stride(from: 0, to: count, by: 200) {
            let insert = sql.insert(into: "kindred_notifications").columns(
                "id", "user_id", "app", "type", "title", "body", "data", "collapse_id", "state", "attempts", "created_at", "deliver_after"
            )
            for _ in start..<min(count, start + 200) {
                let id = UUID().uuidString.lowercased()
                ids.append(id)
                insert.values(
                    SQLBind(id), SQLBind(user), SQLBind("closer"), SQLBind("partner_answered"), SQLBind("t"), SQLBind("b"),
                    SQLBind("{}"), SQLBind(String?.none), SQLBind(state), SQLBind(1), SQLBind(createdAt), SQLBind(createdAt)
                )
            }
            try await insert.run()
        }
        return ids
    }

    static func ids(on sql: any SQLDatabase) async throws -> Set<String> {
        Set(try await sql.select().column("id").from("kindred_notifications").all().map { try $0.decode(column: "id", as: String.self) })
    }
}
