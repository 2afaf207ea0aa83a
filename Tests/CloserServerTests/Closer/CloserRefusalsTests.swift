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

/// Each refusal of the invite, answer and device routes has its own status and code.
@Suite struct CloserRefusalsTests {
    @Test(arguments: Backend.all)
    func inviteRefusals(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let verifier = CloserFixtures.verifier()
            let accept = #"{"verifier":"\#(verifier)"}"#
            // Own invite.
            let xena = try await client.signUp("refuse-xena@example.com")
            let xenaCode = try await client.closerInvite(xena.accessToken, verifier: verifier)
            let own = try await client.call(.post, "/v1/closer/invites/\(xenaCode)/accept", token: xena.accessToken, json: accept)
            #expect(own.status == .conflict)
            #expect(own.errorCode == "own_invite")

            // Malformed key material names the bad field (a new invite replaces its inviter's
            // open one, so another account reserves this one).
            let vera = try await client.signUp("refuse-vera@example.com")
            let reserved = try await client.call(.post, "/v1/closer/invites", token: vera.accessToken)
            let reservedCode = client.object(reserved)["code"] as? String ?? ""
            let badMaterial = CloserFixtures.material(verifier: "verifier:v0:nope")
            let invalid = try await client.call(.put, "/v1/closer/invites/\(reservedCode)", token: vera.accessToken, json: badMaterial)
            #expect(invalid.status == .badRequest)
            #expect(invalid.errorCode == "invalid_invite")
            #expect(String(buffer: invalid.body).contains("verifier"))

            // The inviter paired elsewhere since: their invite can no longer be accepted.
            let yann = try await client.signUp("refuse-yann@example.com")
            let yannCode = try await client.closerInvite(yann.accessToken, verifier: verifier)
            let paired = try await client.call(.post, "/v1/closer/invites/\(yannCode)/accept", token: xena.accessToken, json: accept)
            #expect(paired.status == .created)
            let zoe = try await client.signUp("refuse-zoe@example.com")
            let stale = try await client.call(.post, "/v1/closer/invites/\(xenaCode)/accept", token: zoe.accessToken, json: accept)
            #expect(stale.status == .conflict)
            #expect(stale.errorCode == "inviter_paired")

            // An accepter who is already in a couple; and a paired account cannot invite.
            let walt = try await client.signUp("refuse-walt@example.com")
            let waltCode = try await client.closerInvite(walt.accessToken, verifier: verifier)
            let busy = try await client.call(.post, "/v1/closer/invites/\(waltCode)/accept", token: yann.accessToken, json: accept)
            #expect(busy.status == .conflict)
            #expect(busy.errorCode == "already_paired")
            let pairedInvite = try await client.call(.post, "/v1/closer/invites", token: yann.accessToken)
            #expect(pairedInvite.errorCode == "already_paired")

            // Expired: 24 hours after it was made (moved into the past in the database).
            try await app.database.sql.update("closer_invites").set("expires_at", to: app.clock.now().millisecondsSince1970 - 1)
                .where("code", .equal, waltCode).run()
            let expired = try await client.call(.post, "/v1/closer/invites/\(waltCode)/accept", token: zoe.accessToken, json: accept)
            #expect(expired.status == .gone)
            #expect(expired.errorCode == "invite_expired")
        }
    }

    @Test(arguments: Backend.all)
    func answerAndDeviceRefusals(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let pair = try await client.closerPair("refusals")
            let a = pair.inviter
            let today = client.object(try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: a.accessToken))
            let date = today["date"] as? String ?? ""
            let path = "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers/\(a.user.id)"

            // Plaintext is for encryption version 0 only; this couple is at 2.
            let plain = try await client.call(.put, path, token: a.accessToken, json: #"{"schemaVersion":1,"text":"hello"}"#)
            #expect(plain.status == .badRequest)
            #expect(plain.errorCode == "invalid_answer")
            let unsealed = CloserFixtures.sealedAnswer().replacingOccurrences(of: "sealed:v1:", with: "sealed:v9:")
            let wrongPrefix = try await client.call(.put, path, token: a.accessToken, json: unsealed)
            #expect(wrongPrefix.errorCode == "invalid_answer")

            // Closed 24 hours after the date's expiry (moved into the past in the database).
            try await app.database.sql.update("closer_days")
                .set("expires_at", to: app.clock.now().millisecondsSince1970 - 24 * 3_600_000 - 1)
                .where("couple_id", .equal, pair.coupleID).run()
            let closed = try await client.call(.put, path, token: a.accessToken, json: CloserFixtures.sealedAnswer())
            #expect(closed.status == .gone)
            #expect(closed.errorCode == "answers_closed")

            // Device keys: a malformed key, then at most 10 devices.
            let badKey = try await client.call(.put, "/v1/closer/devices/bad", token: a.accessToken, json: #"{"publicKey":"pub:v1:AAAA","platform":"ios"}"#)
            #expect(badKey.status == .badRequest)
            #expect(badKey.errorCode == "invalid_device_key")
            let key = #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"ios"}"#
            for index in 1...10 {
                let put = try await client.call(.put, "/v1/closer/devices/device-\(index)", token: a.accessToken, json: key)
                #expect(put.status == .created, "device \(index)")
            }
            let eleventh = try await client.call(.put, "/v1/closer/devices/device-11", token: a.accessToken, json: key)
            #expect(eleventh.status == .conflict)
            #expect(eleventh.errorCode == "too_many_devices")
            let again = try await client.call(.put, "/v1/closer/devices/device-10", token: a.accessToken, json: key)
            #expect(again.status == .ok || again.status == .created, "re-publishing a registered device is not an eleventh")
        }
    }
}
