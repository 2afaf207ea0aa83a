@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The single-device session lock: acquire, heartbeat, release, and the takeover with the password.
@Suite struct SoulMateSessionLockTests {
    @Test(arguments: Backend.all)
    func oneInstallationHoldsTheLockUntilItReleasesIt(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-05-01T10:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { _, client in
            let ada = try await client.soulmateMember("lock-ada")
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: ada.token), 404, "no_session_lock")
            let acquired = try await client.soulmate(.put, "/v1/soulmate/session-lock", token: ada.token, json: SoulMateFixtures.lock("phone-1", device: "Ada's iPhone"))
            #expect(acquired.status == .ok, "\(acquired.text)")
            let lock = client.object(acquired)
            #expect(lock["installationId"] as? String == "phone-1")
            #expect(lock["platform"] as? String == "ios")
            #expect(lock["deviceName"] as? String == "Ada's iPhone")
            #expect(lock["appVersion"] as? String == "1.0.0")
            #expect(lock["acquiredAt"] as? String == "2026-05-01T10:00:00Z")
            #expect(lock["updatedAt"] as? String == "2026-05-01T10:00:00Z")

            // The holder's heartbeat refreshes updatedAt (and the device's details), not acquiredAt.
            clock.advance(by: .seconds(90))
            let heartbeat = client.object(
                try await client.soulmate(.put, "/v1/soulmate/session-lock", token: ada.token, json: SoulMateFixtures.lock("phone-1", device: "Ada's renamed iPhone"))
            )
            #expect(heartbeat["acquiredAt"] as? String == "2026-05-01T10:00:00Z")
            #expect(heartbeat["updatedAt"] as? String == "2026-05-01T10:01:30Z")
            #expect(heartbeat["deviceName"] as? String == "Ada's renamed iPhone")
            let read = client.object(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: ada.token))
            #expect(read["updatedAt"] as? String == "2026-05-01T10:01:30Z")

            // Another installation of the account: refused, told which device holds it and when it was last seen.
            let other = try await client.soulmate(.put, "/v1/soulmate/session-lock", token: ada.token, json: SoulMateFixtures.lock("tablet-2", device: "Ada's iPad"))
            expectRefusal(other, 409, "session_locked")
            #expect(other.text.contains("Ada's renamed iPhone"))
            #expect(other.text.contains("2026-05-01T10:01:30Z"))
            // Nor may it release the lock: nothing is released.
            expectRefusal(try await client.soulmate(.delete, "/v1/soulmate/session-lock?installationId=tablet-2", token: ada.token), 409, "session_locked")
            #expect(client.object(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: ada.token))["installationId"] as? String == "phone-1")

            // The holder releases it (twice: idempotent); then the other one acquires it.
            #expect(try await client.soulmate(.delete, "/v1/soulmate/session-lock?installationId=phone-1", token: ada.token).status == .noContent)
            #expect(try await client.soulmate(.delete, "/v1/soulmate/session-lock?installationId=phone-1", token: ada.token).status == .noContent)
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: ada.token), 404, "no_session_lock")
            let second = try await client.soulmate(.put, "/v1/soulmate/session-lock", token: ada.token, json: SoulMateFixtures.lock("tablet-2", device: "Ada's iPad"))
            #expect(second.status == .ok, "\(second.text)")
            #expect(client.object(second)["acquiredAt"] as? String == "2026-05-01T10:01:30Z")
            // Another account's lock is its own.
            let bea = try await client.soulmateMember("lock-bea")
            #expect(try await client.soulmate(.put, "/v1/soulmate/session-lock", token: bea.token, json: SoulMateFixtures.lock("phone-1")).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func malformedInstallationsAreRefused(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let ada = try await client.soulmateMember("lock-bad")
            let longID = String(repeating: "a", count: 129)
            for body in [
                SoulMateFixtures.lock("bad id"), SoulMateFixtures.lock(longID), SoulMateFixtures.lock(""),
                #"{"installationId":"phone-1","platform":"","deviceName":"x","appVersion":"1"}"#,
                #"{"installationId":"phone-1","platform":"ios","deviceName":"\#(String(repeating: "d", count: 101))","appVersion":"1"}"#,
                #"{"installationId":"phone-1","platform":"ios","deviceName":"line\nbreak","appVersion":"1"}"#,
            ] {
                // The contract: 400 `invalid_installation` for a malformed body, as in the query.
                expectRefusal(try await client.soulmate(.put, "/v1/soulmate/session-lock", token: ada.token, json: body), 400, "invalid_installation", body)
            }
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/session-lock/takeover", token: ada.token, json: SoulMateFixtures.takeover("bad id")),
                400, "invalid_installation"
            )
            // In the query (release, route): 400.
            expectRefusal(try await client.soulmate(.delete, "/v1/soulmate/session-lock?installationId=bad%20id", token: ada.token), 400, "invalid_installation")
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/route?installationId=\(longID)", token: ada.token), 400, "invalid_installation")
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: ada.token), 404, "no_session_lock")
        }
    }

    @Test(arguments: Backend.all)
    func takingOverWithThePasswordSignsTheOldPhoneOut(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let database = application.database
            let old = try await client.soulmateMember("takeover-ada", password: "lost phone pass")
            let login = try await client.logIn(old.email, password: "lost phone pass", app: "soulmate")
            #expect(login.status == .ok, "\(login.text)")
            let new = SoulMateMember(session: try login.decode(SessionBody.self), email: old.email, identity: old.identity)
            let bea = try await client.soulmateMember("takeover-bea")
            #expect(try await client.soulmate(.put, "/v1/soulmate/session-lock", token: old.token, json: SoulMateFixtures.lock("old-phone", device: "Lost iPhone")).status == .ok)
            expectRefusal(try await client.soulmate(.put, "/v1/soulmate/session-lock", token: new.token, json: SoulMateFixtures.lock("new-phone")), 409, "session_locked")
            #expect(try await client.route(new, installation: "new-phone")["route"] as? String == "sessionLocked")

            // A wrong password changes nothing.
            let wrong = try await client.soulmate(
                .post, "/v1/soulmate/session-lock/takeover", token: new.token, json: SoulMateFixtures.takeover("new-phone", password: "not the password")
            )
            expectRefusal(wrong, 401, "invalid_credentials")
            #expect(client.object(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: old.token))["installationId"] as? String == "old-phone")

            // The right one: the lock moves, the old session is revoked, the old phone is told.
            let taken = try await client.soulmate(
                .post, "/v1/soulmate/session-lock/takeover", token: new.token,
                json: SoulMateFixtures.takeover("new-phone", password: "lost phone pass", device: "New Pixel")
            )
            #expect(taken.status == .ok, "\(taken.text)")
            #expect(client.object(taken)["installationId"] as? String == "new-phone")
            #expect(client.object(taken)["deviceName"] as? String == "New Pixel")
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/session-lock", token: old.token), 401, "session_revoked")
            #expect(try await client.route(old, installation: "old-phone")["route"] as? String == "auth")
            #expect(try await client.route(new, installation: "new-phone")["lock"] as? String == "held")
            let signedOut = try await SoulMateFixtures.events("soulmate.signed_out", for: old.id, on: database)
            #expect(signedOut.count == 1)
            #expect(signedOut.first?.data["installationId"] == "old-phone")
            #expect(signedOut.first?.data["byDevice"] == "New Pixel")
            let pushes = try await SoulMateFixtures.pushes("soulmate.signed_out", for: old.id, on: database)
            #expect(pushes.count == 1)
            #expect(pushes.first?.type == "account_security")
            #expect(pushes.first?.data["installationId"] == "old-phone")
            // Nobody else was signed out or told.
            #expect(try await client.soulmate(.get, "/v1/soulmate/pair-code", token: bea.token).status == .ok)
            #expect(try await SoulMateFixtures.events("soulmate.signed_out", for: bea.id, on: database).isEmpty)

            // Taking over from oneself (the same installation) tells nobody.
            let again = try await client.soulmate(
                .post, "/v1/soulmate/session-lock/takeover", token: new.token, json: SoulMateFixtures.takeover("new-phone", password: "lost phone pass")
            )
            #expect(again.status == .ok)
            #expect(try await SoulMateFixtures.events("soulmate.signed_out", for: old.id, on: database).count == 1)
        }
    }

    @Test(arguments: Backend.all)
    func wrongPasswordsAreLimitedLikeLogins(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let ada = try await client.soulmateMember("takeover-limit")
            let limit = TestApplication.testAuth.loginFailuresPerAccount
            for attempt in 0..<limit {
                expectRefusal(
                    try await client.soulmate(.post, "/v1/soulmate/session-lock/takeover", token: ada.token, json: SoulMateFixtures.takeover("p", password: "wrong password")),
                    401, "invalid_credentials", "attempt \(attempt)"
                )
            }
            // Now even the right password waits.
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/session-lock/takeover", token: ada.token, json: SoulMateFixtures.takeover("p")),
                429, "rate_limited"
            )
        }
    }

    @Test(arguments: Backend.all)
    func anAccountWithoutAPasswordCannotTakeOver(backend: Backend) async throws {
        try await TestApplication.run(on: backend, identity: FakeIdentityVerifier()) { _, client in
            let apple = try await client.call(
                .post, "/v1/auth/apple", app: "soulmate", json: #"{"idToken":"apple|takeover-apple|","firstName":"Al","lastName":"Apple"}"#
            )
            let token = try apple.decode(SessionBody.self).accessToken
            expectRefusal(
                try await client.soulmate(.post, "/v1/soulmate/session-lock/takeover", token: token, json: SoulMateFixtures.takeover("p")),
                401, "invalid_credentials"
            )
        }
    }
}
