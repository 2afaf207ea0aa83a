@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The idea catalog, the deck, swipes and matches (`createDateMatchOnMutualLove`), on both backends.
@Suite struct DatesSwipeTests {
    @Test(arguments: Backend.all)
    func theCatalogListsEveryIdeaAndFiltersByCategory(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let anonymous = try await client.anonymous()
            let all = client.object(try await client.call(.get, "/v1/closer/date-ideas", token: anonymous.accessToken))
            let ideas = all["ideas"] as? [[String: Any]] ?? []
            #expect(ideas.count == 126)
            #expect(all["categories"] as? [String] == ["at_home", "outdoors", "food", "culture", "adventure", "budget"])
            #expect(ideas.first?["id"] as? String == "home-001")
            #expect(ideas.first?["title"] as? String == "Blanket fort cinema")
            #expect(ideas.first?["costLevel"] as? Int == 0)
            let food = try await client.call(.get, "/v1/closer/date-ideas?category=food", token: anonymous.accessToken)
            #expect(client.ids(food, "ideas").count == 21)
            #expect((client.object(food)["ideas"] as? [[String: Any]] ?? []).allSatisfy { $0["category"] as? String == "food" })
            let unknown = try await client.call(.get, "/v1/closer/date-ideas?category=space", token: anonymous.accessToken)
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorCode == "bad_request")
        }
    }

    @Test(arguments: Backend.all)
    func theDeckFollowsMyWeightsAndLeavesOutWhatISwiped(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("deck")
            let put = try await client.call(
                .put, "\(couple.base)/dates/preferences", token: couple.a.accessToken,
                json: #"{"preferences":[{"category":"budget","weight":-2},{"category":"food","weight":3},{"category":"culture","weight":1}]}"#
            )
            #expect(put.status == .ok, "\(put.text)")
            // Listed in the categories' order, whatever the order sent.
            #expect(put.text == #"{"preferences":[{"category":"food","weight":3},{"category":"culture","weight":1},{"category":"budget","weight":-2}]}"#)
            #expect(try await client.call(.get, "\(couple.base)/dates/preferences", token: couple.a.accessToken).text == put.text)
            #expect(try await client.call(.get, "\(couple.base)/dates/preferences", token: couple.b.accessToken).text == #"{"preferences":[]}"#)

            let deck = try await client.call(.get, "\(couple.base)/dates/deck?limit=100", token: couple.a.accessToken)
            let ids = client.ids(deck, "ideas")
            #expect(client.object(deck)["remaining"] as? Int == 126)
            #expect(Array(ids.prefix(21)) == (1...21).map { String(format: "food-%03d", $0) })
            #expect(Array(ids[21..<42]) == (1...21).map { String(format: "culture-%03d", $0) })
            #expect(ids[42] == "home-001")
            // Then the unweighted categories in catalog order; budget (-2) comes last, past this page.
            #expect(ids.count == 100)
            #expect(ids[63] == "outdoors-001" && ids[84] == "adventure-001")
            #expect(!ids.contains { $0.hasPrefix("budget-") })

            #expect(try await client.swipe(couple, "food-001", "skip", token: couple.a.accessToken).status == .ok)
            #expect(try await client.swipe(couple, "food-002", "maybe", token: couple.a.accessToken).status == .ok)
            let after = try await client.call(.get, "\(couple.base)/dates/deck?limit=2", token: couple.a.accessToken)
            #expect(client.ids(after, "ideas") == ["food-003", "food-004"])
            #expect(client.object(after)["remaining"] as? Int == 124)
            // The partner's deck is untouched and in catalog order (no weights).
            let partner = try await client.call(.get, "\(couple.base)/dates/deck?limit=3", token: couple.b.accessToken)
            #expect(client.ids(partner, "ideas") == ["home-001", "home-002", "home-003"])
            #expect(client.object(partner)["remaining"] as? Int == 126)
        }
    }

    @Test(arguments: Backend.all)
    func aMutualLoveMakesOneMatchAndNotifiesBoth(backend: Backend) async throws {
        let clock = TestClock()
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("match")
            let first = try await client.swipe(couple, "outdoors-004", "love", token: couple.a.accessToken)
            #expect(first.status == .ok)
            #expect(client.object(first)["match"] == nil)
            #expect(client.object(first)["action"] as? String == "love")
            // A maybe is not a love.
            #expect(client.object(try await client.swipe(couple, "outdoors-004", "maybe", token: couple.b.accessToken))["match"] == nil)
            clock.advance(by: .seconds(5))
            let second = try await client.swipe(couple, "outdoors-004", "love", token: couple.b.accessToken)
            let match = client.object(second)["match"] as? [String: Any]
            #expect(match?["ideaId"] as? String == "outdoors-004")
            #expect((match?["idea"] as? [String: Any])?["title"] as? String == "Sunset bike ride")
            let matchID = match?["id"] as? String
            #expect(matchID != nil)
            // Swiping love again answers the same match and notifies nobody again.
            let again = try await client.swipe(couple, "outdoors-004", "love", token: couple.a.accessToken)
            #expect((client.object(again)["match"] as? [String: Any])?["id"] as? String == matchID)

            let sql = app.database.sql
            // Each partner gets one push (the inviter also had the invite's).
            #expect(try await DatesFixtures.notifications(of: couple.a.user.id, on: sql) == ["date_match", "invite_accepted", "invite_created"])
            #expect(try await DatesFixtures.notifications(of: couple.b.user.id, on: sql) == ["date_match"])
            #expect(try await DatesFixtures.events(of: couple.pair.coupleID, on: sql) == ["closer.invite_accepted", "closer.date_match"])

            // A second match, later: newest first, paged.
            clock.advance(by: .seconds(5))
            _ = try await client.swipe(couple, "food-010", "love", token: couple.b.accessToken)
            let other = client.object(try await client.swipe(couple, "food-010", "love", token: couple.a.accessToken))["match"] as? [String: Any]
            let page = try await client.call(.get, "\(couple.base)/dates/matches?limit=1", token: couple.b.accessToken)
            #expect(client.ids(page, "matches") == [other?["id"] as? String ?? "-"])
            let cursor = client.object(page)["nextCursor"] as? String ?? ""
            let next = try await client.call(.get, "\(couple.base)/dates/matches?limit=1&cursor=\(cursor)", token: couple.b.accessToken)
            #expect(client.ids(next, "matches") == [matchID ?? "-"])
            #expect(client.object(next)["nextCursor"] == nil)
            #expect(client.ids(try await client.call(.get, "\(couple.base)/dates/matches", token: couple.a.accessToken), "matches").count == 2)
        }
    }

    @Test(arguments: Backend.all)
    func aPartnersSwipesStayPrivate(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("private")
            let mine = try await client.swipe(couple, "culture-002", "skip", token: couple.a.accessToken)
            #expect(Set(client.object(mine).keys) == ["ideaId", "action", "swipedAt"])
            // The partner's deck still offers it, no route lists the partner's swipes, and a
            // love from the partner does not reveal the skip (no match, the answer is their own).
            #expect(client.ids(try await client.call(.get, "\(couple.base)/dates/deck?limit=100", token: couple.b.accessToken), "ideas").contains("culture-002"))
            let theirs = client.object(try await client.swipe(couple, "culture-002", "love", token: couple.b.accessToken))
            #expect(theirs["action"] as? String == "love")
            #expect(theirs["match"] == nil)
            #expect(try await client.call(.get, "\(couple.base)/dates/swipes", token: couple.b.accessToken).status == .notFound)
        }
    }

    @Test(arguments: Backend.all)
    func badSwipesGetTypedErrors(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("badswipe")
            let stranger = try await client.signUp("badswipe-c@example.com")
            let cases: [(String, String, String, HTTPResponse.Status, String)] = [
                (couple.a.accessToken, "no-such-idea", #"{"action":"love"}"#, .notFound, "date_idea_not_found"),
                (couple.a.accessToken, "home-001", #"{"action":"superlike"}"#, .badRequest, "invalid_swipe"),
                (couple.a.accessToken, "home-001", #"{"action":"LOVE"}"#, .badRequest, "invalid_swipe"),
                (couple.a.accessToken, "home-001", #"{}"#, .badRequest, "bad_request"),
                (stranger.accessToken, "home-001", #"{"action":"love"}"#, .notFound, "couple_not_found"),
            ]
            for (token, idea, body, status, code) in cases {
                let response = try await client.call(.put, "\(couple.base)/dates/swipes/\(idea)", token: token, json: body)
                #expect(response.status == status, "\(idea) \(body): \(response.text)")
                #expect(response.errorCode == code, "\(idea) \(body): \(response.text)")
            }
            let prefs: [(String, String)] = [
                (#"{"preferences":[{"category":"space","weight":1}]}"#, "invalid_preferences"),
                (#"{"preferences":[{"category":"food","weight":4}]}"#, "invalid_preferences"),
                (#"{"preferences":[{"category":"food","weight":1},{"category":"food","weight":2}]}"#, "invalid_preferences"),
            ]
            for (body, code) in prefs {
                let response = try await client.call(.put, "\(couple.base)/dates/preferences", token: couple.a.accessToken, json: body)
                #expect(response.status == .badRequest && response.errorCode == code, "\(body): \(response.text)")
            }
            let cursor = try await client.call(.get, "\(couple.base)/dates/matches?cursor=nope", token: couple.a.accessToken)
            #expect(cursor.errorCode == "bad_request")
            #expect(try await client.call(.get, "\(couple.base)/dates/deck?limit=0", token: couple.a.accessToken).status == .badRequest)
        }
    }
}
