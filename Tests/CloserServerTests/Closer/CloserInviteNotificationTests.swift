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

/// Creating an invite queues the inviter's notification record in the same transaction, as the
/// seed's `createInviteCallable` writes its `notification_queue` entry; a refused creation
/// queues nothing.
@Suite struct CloserInviteNotificationTests {
    @Test(arguments: Backend.all)
    func creatingAnInviteQueuesTheInvitersRecord(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-03-02T12:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let ada = try await client.signUp("invite-note-ada@example.com")
            let created = try await client.call(.post, "/v1/closer/invites", token: ada.accessToken)
            #expect(created.status == .created)
            let code = client.object(created)["code"] as? String ?? ""
            let expires = clock.now().millisecondsSince1970 + 24 * 3_600_000

            let rows = try await Self.notifications(of: ada.user.id, app)
            #expect(rows.count == 1)
            let row = try #require(rows.first)
            #expect(row.type == "invite_created")
            #expect(row.app == "closer")
            #expect(row.state == "queued")
            #expect(row.title == "Your invite is ready")
            #expect(row.collapseID == "closer.invite_created:\(ada.user.id)")
            let data = try JSONSerialization.jsonObject(with: Data(row.data.utf8)) as? [String: String]
            #expect(data == ["event": "closer.invite_created", "expiresAt": String(expires)])
            // The payload never carries the code.
            #expect(!row.data.contains(code) && !row.body.contains(code))

            // A second invite queues a second record; a refused one (anonymous, or paired) none.
            clock.advance(by: .seconds(60))
            #expect(try await client.call(.post, "/v1/closer/invites", token: ada.accessToken).status == .created)
            #expect(try await Self.notifications(of: ada.user.id, app).map(\.type) == ["invite_created", "invite_created"])
            let anonymous = try await client.anonymous()
            #expect(try await client.call(.post, "/v1/closer/invites", token: anonymous.accessToken).status == .forbidden)
            #expect(try await Self.notifications(of: anonymous.user.id, app).isEmpty)
            let pair = try await client.closerPair("invite-note")
            let before = try await Self.notifications(of: pair.inviter.user.id, app).count
            let refused = try await client.call(.post, "/v1/closer/invites", token: pair.inviter.accessToken)
            #expect(refused.errorCode == "already_paired")
            #expect(try await Self.notifications(of: pair.inviter.user.id, app).count == before)
        }
    }

    @Test(arguments: Backend.all)
    func anOptedOutInviterGetsASkippedRecord(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let bo = try await client.signUp("invite-note-bo@example.com")
            let settings = try await client.call(
                .put, "/v1/me/notification-settings", token: bo.accessToken, json: #"{"optOut":["invite_created"]}"#
            )
            #expect(settings.status == .ok, "\(String(buffer: settings.body))")
            #expect(try await client.call(.post, "/v1/closer/invites", token: bo.accessToken).status == .created)
            #expect(try await Self.notifications(of: bo.user.id, app).map(\.state) == ["skipped"])
        }
    }

    struct Row: Sendable {
        var type: String, app: String, state: String, title: String, body: String, data: String, collapseID: String?
    }

    static func notifications(of userID: String, _ app: TestApplication) async throws -> [Row] {
        try await app.database.sql.select().columns("type", "app", "state", "title", "body", "data", "collapse_id")
            .from("kindred_notifications").where("user_id", .equal, userID).orderBy("created_at").all().map {
                Row(
                    type: try $0.decode(column: "type", as: String.self), app: try $0.decode(column: "app", as: String.self),
                    state: try $0.decode(column: "state", as: String.self), title: try $0.decode(column: "title", as: String.self),
                    body: try $0.decode(column: "body", as: String.self), data: try $0.decode(column: "data", as: String.self),
                    collapseID: try $0.decode(column: "collapse_id", as: String?.self)
                )
            }
    }
}
