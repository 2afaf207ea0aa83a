@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The seed's app flow as the server decides it: auth → profile completion → pairing → chat, and
/// back to pairing after an unpair; and the sign-up that asks for both names.
@Suite struct SoulMateFlowTests {
    @Test(arguments: Backend.all)
    func theRouteFollowsTheAccountFromSignInToChatAndBackToPairing(backend: Backend) async throws {
        try await TestApplication.run(on: backend, identity: FakeIdentityVerifier()) { _, client in
            // No token: the sign-in screen, and no error.
            let anonymous = try await client.route(nil)
            #expect(anonymous["route"] as? String == "auth")
            #expect(anonymous["lock"] as? String == "none")
            #expect(anonymous["pendingRequests"] as? Int == 0)
            let garbage = try await client.soulmate(.get, "/v1/soulmate/route?installationId=phone-1", token: "not-a-token")
            #expect(client.object(garbage)["route"] as? String == "auth")
            // A malformed installation id is still refused.
            expectRefusal(try await client.soulmate(.get, "/v1/soulmate/route?installationId=bad%20id", token: nil), 400, "invalid_installation")

            // Sign in with Apple without a name: the profile must be completed first.
            let apple = try await client.call(.post, "/v1/auth/apple", app: "soulmate", json: #"{"idToken":"apple|flow-subject|ivy@example.com"}"#)
            #expect(apple.status == .ok, "\(apple.text)")
            let session = try apple.decode(SessionBody.self)
            let ivy = SoulMateMember(session: session, email: "ivy@example.com", identity: .init())
            #expect(try await client.route(ivy)["route"] as? String == "profileCompletion")
            let bob = try await client.soulmateMember("flow-bob", first: "Bob", last: "Baker")
            let early = try await client.soulmate(
                .post, "/v1/soulmate/pair-requests", token: ivy.token, json: #"{"code":"\#(try await client.pairCode(bob))"}"#
            )
            expectRefusal(early, 422, "profile_incomplete")
            // Only a first name is not enough.
            _ = try await client.call(.patch, "/v1/me", app: "soulmate", token: ivy.token, json: #"{"firstName":"Ivy"}"#)
            #expect(try await client.route(ivy)["route"] as? String == "profileCompletion")
            let named = try await client.call(.patch, "/v1/me", app: "soulmate", token: ivy.token, json: #"{"lastName":"Ives"}"#)
            #expect(named.status == .ok, "\(named.text)")

            // Complete and alone: pairing. The lock is nobody's until this phone acquires it.
            let alone = try await client.route(ivy)
            #expect(alone["route"] as? String == "pairing")
            #expect(alone["lock"] as? String == "none")
            #expect(alone["pairId"] == nil)
            let acquired = try await client.soulmate(.put, "/v1/soulmate/session-lock", token: ivy.token, json: SoulMateFixtures.lock("phone-1"))
            #expect(acquired.status == .ok, "\(acquired.text)")
            #expect(try await client.route(ivy, installation: "phone-1")["lock"] as? String == "held")
            // Another installation of the same account is sent to the lock screen first.
            let elsewhere = try await client.route(ivy, installation: "phone-2")
            #expect(elsewhere["route"] as? String == "sessionLocked")
            #expect(elsewhere["lock"] as? String == "elsewhere")

            // A pending request shows as the badge.
            _ = try await client.pendingRequest(from: bob, to: ivy)
            #expect(try await client.route(ivy, installation: "phone-1")["pendingRequests"] as? Int == 1)
            #expect(try await client.route(bob)["pendingRequests"] as? Int == 0)

            // Paired: chat, with the pair and the partner.
            let requests = client.object(try await client.soulmate(.get, "/v1/soulmate/pair-requests", token: ivy.token))
            let requestID = (requests["incoming"] as? [[String: Any]])?.first?["id"] as? String ?? ""
            let pair = client.object(try await client.soulmate(.post, "/v1/soulmate/pair-requests/\(requestID)/accept", token: ivy.token))
            let chat = try await client.route(ivy, installation: "phone-1")
            #expect(chat["route"] as? String == "chat")
            #expect(chat["pairId"] as? String == pair["id"] as? String)
            #expect(chat["partnerId"] as? String == bob.id)
            #expect(chat["pendingRequests"] as? Int == 0)
            #expect(try await client.route(bob)["partnerId"] as? String == ivy.id)

            // Unpaired with consent: both go back to pairing.
            let unpair = client.object(try await client.soulmate(.post, "/v1/soulmate/unpair-requests", token: bob.token))
            let accepted = try await client.soulmate(.post, "/v1/soulmate/unpair-requests/\(unpair["id"] as? String ?? "")/accept", token: ivy.token)
            #expect(accepted.status == .ok, "\(accepted.text)")
            #expect(try await client.route(ivy, installation: "phone-1")["route"] as? String == "pairing")
            #expect(try await client.route(bob)["route"] as? String == "pairing")

            // Signed out: auth again.
            _ = try await client.call(.post, "/v1/auth/logout", app: "soulmate", token: bob.token)
            #expect(try await client.route(bob)["route"] as? String == "auth")
        }
    }

    @Test(arguments: Backend.all)
    func soulMateSignUpNeedsBothNamesAndOtherAppsDoNot(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            for body in [
                #"{"email":"nameless@example.com","password":"correct horse"}"#,
                #"{"email":"nameless@example.com","password":"correct horse","firstName":"Ann"}"#,
                #"{"email":"nameless@example.com","password":"correct horse","lastName":"Able"}"#,
                #"{"email":"nameless@example.com","password":"correct horse","firstName":"","lastName":"Able"}"#,
            ] {
                expectRefusal(try await client.call(.post, "/v1/auth/signup", app: "soulmate", json: body), 400, "invalid_profile", body)
            }
            let named = try await client.soulmateMember("named", first: "Ann", last: "Able")
            #expect(named.session.user.firstName == "Ann")
            #expect(named.session.user.lastName == "Able")
            #expect(try await client.route(named)["route"] as? String == "pairing")
            // Closer's sign-up does not ask for names.
            let closer = try await client.call(
                .post, "/v1/auth/signup", app: "closer", json: #"{"email":"nameless@example.com","password":"correct horse"}"#
            )
            #expect(closer.status == .created, "\(closer.text)")
        }
    }

    @Test(arguments: Backend.all)
    func anotherAppsAccountIsRefusedWithWrongApp(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let closer = try await client.signUp("flow-closer@example.com")
            expectRefusal(try await client.call(.get, "/v1/soulmate/pair-code", app: "closer", token: closer.accessToken), 403, "wrong_app")
            expectRefusal(try await client.call(.get, "/v1/soulmate/route?installationId=p", app: "closer", token: closer.accessToken), 403, "wrong_app")
            // Presented as SoulMate's, the token is not SoulMate's at all.
            expectRefusal(try await client.call(.get, "/v1/soulmate/pair-code", app: "soulmate", token: closer.accessToken), 401, "invalid_token")
            #expect(client.object(try await client.soulmate(.get, "/v1/soulmate/route?installationId=p", token: closer.accessToken))["route"] as? String == "auth")
        }
    }
}
