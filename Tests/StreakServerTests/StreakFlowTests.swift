@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The seed's account model end to end: an anonymous account syncs, befriends and publishes; it
/// links Apple keeping its id; a second device signs in with Apple and finds everything.
@Suite struct StreakFlowTests {
    @Test(arguments: Backend.all)
    func anAnonymousPlayerLinksAppleAndKeepsEverything(backend: Backend) async throws {
        try await TestApplication.run(on: backend, identity: FakeIdentityVerifier(), clock: try StreakFixtures.clock()) { _, client in
            let phone = try await client.streakMember("phone", displayName: "Ada", anonymous: true)
            #expect(phone.session.user.isAnonymous)
            let friend = try await client.streakMember("bea", displayName: "Bea")
            try await client.befriend(phone, friend)
            #expect(try await client.streak(.post, "/v1/streaksync/results", token: phone.token, json: StreakFixtures.results([StreakFixtures.result("wordle:1200:2026-07-01")])).status == .ok)
            #expect(try await client.streak(.post, "/v1/streaksync/achievements", token: phone.token, json: StreakFixtures.achievements([StreakFixtures.achievement("achievement.streak-master")])).status == .ok)
            #expect(try await client.publish(phone, score: 3).status == .ok)

            let link = try await client.call(
                .post, "/v1/me/credentials/apple", app: "streaksync", token: phone.token, json: #"{"idToken":"apple|ada-apple-sub|"}"#
            )
            #expect(link.status == .ok, "\(link.text)")
            #expect(try link.decode(UserBody.self).id == phone.id)

            // A new device signs in with Apple: the same account, every record, the same friends.
            let signIn = try await client.call(.post, "/v1/auth/apple", app: "streaksync", json: #"{"idToken":"apple|ada-apple-sub|"}"#)
            #expect(signIn.status == .ok, "\(signIn.text)")
            let tablet = StreakMember(session: try signIn.decode(SessionBody.self), displayName: "Ada")
            #expect(tablet.id == phone.id && !tablet.session.user.isAnonymous)
            let results = client.object(try await client.streak(.get, "/v1/streaksync/results", token: tablet.token))
            #expect((results["results"] as? [[String: Any]])?.map { $0["id"] as? String } == ["wordle:1200:2026-07-01"])
            let achievements = client.object(try await client.streak(.get, "/v1/streaksync/achievements", token: tablet.token))
            #expect((achievements["achievements"] as? [Any])?.count == 1)
            #expect(client.object(try await client.streak(.get, "/v1/streaksync/profile", token: tablet.token))["displayName"] as? String == "Ada")
            #expect(try await client.board(friend).entries == [phone.id])
            #expect(try await client.board(tablet).notPlayed == [friend.id])
        }
    }
}
