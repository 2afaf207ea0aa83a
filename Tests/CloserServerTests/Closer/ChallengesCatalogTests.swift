@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The challenge catalog: the bundled content, premium challenges through billing's real
/// entitlement path, the document's rules and the operators' import.
@Suite struct ChallengesCatalogTests {
    @Test func theBundledCatalogHoldsAtLeastTenFreeAndPremiumChallenges() throws {
        let challenges = try ChallengesCatalog.bundledChallenges()
        #expect(challenges.count >= 10)
        #expect(challenges.contains { $0.isPremium } && challenges.contains { !$0.isPremium })
        #expect(challenges.allSatisfy { ChallengesDocument.dayRange.contains($0.days.count) })
        #expect(challenges.first { $0.id == "gratitude-7" }?.days.count == 7)
        #expect(challenges.first { $0.id == "check-in-14" }?.days.count == 14)
    }

    @Test func documentsThatBreakARuleAreRefused() {
        func refused(_ json: String) -> ChallengesError? {
            do {
                _ = try ChallengesDocument(json: Data(json.utf8))
                return nil
            } catch {
                return error
            }
        }
        let ok = #"{"id":"c","title":"T","description":"","category":"fun","isPremium":false,"days":["a","b"]}"#
        #expect(refused(#"{"version":1,"challenges":[\#(ok)]}"#) == nil)
        #expect(refused(#"{"version":2,"challenges":[\#(ok)]}"#) == .unsupportedVersion(2))
        #expect(refused(#"{"version":1,"challenges":[]}"#) == .invalidChallenge(id: "", "the document has no challenges"))
        #expect(refused(#"{"version":1,"challenges":[\#(ok),\#(ok)]}"#) == .invalidChallenge(id: "c", "the id appears twice"))
        #expect(
            refused(#"{"version":1,"challenges":[{"id":"c","title":"T","description":"","category":"fun","isPremium":false,"days":["a"]}]}"#)
                == .invalidChallenge(id: "c", "a challenge has 2–30 days")
        )
        #expect(
            refused(#"{"version":1,"challenges":[{"id":"c","title":"T","description":"","category":"Fun!","isPremium":false,"days":["a","b"]}]}"#)
                == .invalidChallenge(id: "c", "category must match ^[a-z][a-z_]{0,31}$")
        )
        #expect(
            refused(#"{"version":1,"challenges":[{"id":"c","title":"T","description":"","category":"fun","isPremium":false,"days":["a",""]}]}"#)
                == .invalidChallenge(id: "c", "day 2: the step must be 1–200 characters")
        )
        #expect(
            refused(#"{"version":1,"challenges":[{"id":"C","title":"T","description":"","category":"fun","isPremium":false,"days":["a","b"]}]}"#)
                == .invalidChallenge(id: "C", "id must match ^[a-z0-9][a-z0-9-]{0,63}$")
        )
        if case .some(.invalidJSON) = refused(#"{"challenges":[]}"#) {} else { Issue.record("a missing version is not a challenges document") }
    }

    @Test(arguments: Backend.all)
    func anImportedChallengeIsServedAfterTheNextStart(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let json = #"{"version":1,"challenges":[{"id":"gratitude-7","title":"Replaced","description":"","category":"appreciation","isPremium":false,"days":["One","Two"]},{"id":"new-one","title":"New","description":"d","category":"fun","isPremium":true,"days":["x","y","z"]}]}"#
            let summary = try await ChallengesImport.run(Data(json.utf8), database: app.database, clock: TestClock())
            #expect(summary.challengeIDs == ["gratitude-7", "new-one"])
            let catalog = try await ChallengesCatalog.load(from: app.database)
            #expect(summary.catalogChallengeCount == catalog.challenges.count)
            #expect(catalog.challenges.count == (try ChallengesCatalog.bundledChallenges()).count + 1)
            #expect(catalog.byID["gratitude-7"]?.days == ["One", "Two"])
            #expect(catalog.challenges.last?.id == "new-one")
            let bad = #"{"version":1,"challenges":[{"id":"x","title":"","description":"","category":"fun","isPremium":false,"days":["a","b"]}]}"#
            await #expect(throws: ChallengesError.invalidChallenge(id: "x", "title must be 1–80 characters")) {
                try await ChallengesImport.run(Data(bad.utf8), database: app.database, clock: TestClock())
            }
            #expect(try await ChallengesCatalog.load(from: app.database).byID["x"] == nil)
        }
    }

    @Test(arguments: Backend.all)
    func premiumChallengesFollowTheMembersSubscription(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { app, client in
            let couple = try await client.datesCouple("challenge-premium")
            let list = client.object(try await client.call(.get, "/v1/closer/challenges", token: couple.b.accessToken))
            let challenges = list["challenges"] as? [[String: Any]] ?? []
            #expect(challenges.count == (try ChallengesCatalog.bundledChallenges()).count)
            #expect(challenges.first?["id"] as? String == "gratitude-7")
            #expect(challenges.first?["dayCount"] as? Int == 7)
            #expect(challenges.allSatisfy { $0["days"] == nil })
            for token in [couple.a.accessToken, couple.b.accessToken] {
                let refused = try await client.joinChallenge(couple, "love-notes-10", token: token)
                #expect(refused.status == .forbidden)
                #expect(refused.errorCode == "premium_required")
            }
            let purchase = try await client.revenueCatWebhook(BillingFixtures.revenueCat(
                id: "cp1", type: "INITIAL_PURCHASE", user: couple.a.user.id, product: "closer_premium_monthly",
                expiresAt: BillingFixtures.now + 30 * 86_400, eventAt: BillingFixtures.now - 100
            ))
            #expect(purchase.status == .ok)
            await app.drainInbox()
            // Either member's subscription opens it to both.
            let id = try await client.joinedChallenge(couple, "love-notes-10", token: couple.b.accessToken)
            let instance = try await client.challengeInstance(couple, id, token: couple.a.accessToken)
            #expect((instance["days"] as? [[String: Any]])?.count == 10)
        }
    }
}
