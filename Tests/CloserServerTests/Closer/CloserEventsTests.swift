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

/// What each step of a couple's day tells the partner: the events on `couple:<id>` and the
/// notifications to each member, in order, with no secret in any of them.
@Suite struct CloserEventsTests {
    @Test(arguments: Backend.all)
    func eachStepPublishesItsEventAndNotifiesThePartner(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let pair = try await client.closerPair("events")
            let a = pair.inviter, b = pair.acceptor
            let couple = "/v1/closer/couples/\(pair.coupleID)"
            let today = client.object(try await client.call(.post, "\(couple)/today", token: a.accessToken))
            let date = today["date"] as? String ?? ""
            for (token, device) in [(a.accessToken, "a-phone"), (b.accessToken, "b-phone")] {
                _ = try await client.call(.put, "/v1/closer/devices/\(device)", token: token, json: #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"ios"}"#)
            }
            let sealedA = CloserFixtures.sealedAnswer(), sealedB = CloserFixtures.sealedAnswer()
            #expect(try await client.call(.put, "\(couple)/days/\(date)/answers/\(a.user.id)", token: a.accessToken, json: sealedA).status == .created)
            #expect(try await client.call(.put, "\(couple)/days/\(date)/answers/\(b.user.id)", token: b.accessToken, json: sealedB).status == .created)
            let keybox = CloserFixtures.keybox()
            let release = try await client.call(
                .post, "\(couple)/days/\(date)/answers/\(a.user.id)/release-keys", token: a.accessToken,
                json: #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"\#(keybox)"}]}"#
            )
            #expect(release.status == .created)
            let thread = client.object(try await client.call(.post, "\(couple)/threads", token: a.accessToken, json: #"{"questionId":"values-001"}"#))
            let message = #"{"schemaVersion":3,"encryptedPayload":"sealed:v1:\#(CloserFixtures.base64url(200))","commitmentHash":"sha256:\#(CloserFixtures.base64url(32))","commitmentSeal":"enc:v1:\#(CloserFixtures.base64(60))"}"#
            let posted = try await client.call(.put, "\(couple)/threads/\(thread["id"] as? String ?? "")/messages/\(b.user.id)", token: b.accessToken, json: message)
            #expect(posted.status == .created)
            #expect(client.object(try await client.call(.post, "/v1/closer/reminders/gentle", token: a.accessToken))["allowed"] as? Bool == true)

            let sql = app.database.sql
            let events = try await sql.select().columns("type", "data").from("kindred_realtime_events")
                .where("channel", .equal, "couple:\(pair.coupleID)").orderBy("seq").all()
            let types = try events.map { try $0.decode(column: "type", as: String.self) }
            #expect(types == [
                "closer.invite_accepted", "closer.partner_answered", "closer.partner_answered", "closer.keys_released",
                "closer.thread_message", "closer.gentle_reminder",
            ])
            let payloads = try events.map { try $0.decode(column: "data", as: String.self) }.joined()
            for secret in [sealedA, sealedB, keybox] {
                #expect(!payloads.contains(String(secret.dropFirst(30).prefix(40))), "an event carries ciphertext")
            }
            func notified(_ user: String) async throws -> [String] {
                try await sql.select().column("type").from("kindred_notifications").where("user_id", .equal, user)
                    .all().map { try $0.decode(column: "type", as: String.self) }
            }
            let toA = try await notified(a.user.id), toB = try await notified(b.user.id)
            // The test clock stands still, so both lists are compared as sets of types.
            #expect(toA.sorted() == ["invite_accepted", "invite_created", "partner_answered", "thread_message"])
            #expect(toB.sorted() == ["gentle_reminder", "keys_released", "partner_answered"])
        }
    }
}
