import Foundation
import KindredTestSupport
import Testing

/// Two phones (`kindred closer dates|bucket … --json`, each with its own `--profile`) against a
/// live `kindred serve`: the deck and its weights, a mutual love that both phones see as one
/// match, a plan from that match through its lifecycle, and the bucket list.
@Suite(.serialized) struct CloserDatesEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test(.timeLimit(.minutes(4)))
    func twoPhonesSwipeMatchPlanAndKeepABucketList() async throws {
        #expect(try await LiveServer.running { try flow($0) }.stopped.status == 0)
    }

    func flow(_ server: LiveServer) throws {
        let alice = CloserPhone(profile: folder.url.appendingPathComponent("alice").path, server: server.url)
        let bob = CloserPhone(profile: folder.url.appendingPathComponent("bob").path, server: server.url)
        try alice.signUp("alice")
        try bob.signUp("bob")
        let share = try #require(try alice.succeed(["invite"]).split(separator: "\n").last.map(String.init))
        #expect(try bob.succeed(["accept", share]).hasPrefix("paired: couple "))

        // The deck, then weights that put food first.
        let deck = try alice.json(["dates", "deck", "--limit", "3"])
        #expect((deck["ideas"] as? [[String: Any]])?.map { $0["id"] as? String } == ["home-001", "home-002", "home-003"])
        #expect(deck["remaining"] as? Int == 126)
        let prefs = try alice.json(["dates", "prefs", "food=3", "budget=-1"])
        #expect((prefs["preferences"] as? [[String: Any]])?.count == 2)
        let weighted = try alice.json(["dates", "deck", "--limit", "1"])
        #expect((weighted["ideas"] as? [[String: Any]])?.first?["id"] as? String == "food-001")

        // A mutual love: one match, on both phones.
        #expect(try alice.json(["dates", "swipe", "food-001", "love"])["match"] == nil)
        let matched = try bob.json(["dates", "swipe", "food-001", "love"])
        let matchID = try #require((matched["match"] as? [String: Any])?["id"] as? String)
        for phone in [alice, bob] {
            let matches = try phone.json(["dates", "matches"])["matches"] as? [[String: Any]]
            #expect(matches?.map { $0["id"] as? String } == [matchID])
        }
        #expect(try alice.succeed(["dates", "matches"]).contains("food-001"))
        // Bad input: one line, the server's code in the JSON error.
        let unknown = try alice.failure(["dates", "swipe", "no-such-idea", "love"])
        #expect(unknown.code == "date_idea_not_found")
        #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
        #expect(try alice.failure(["dates", "swipe", "food-002", "superlike"]).code == "usage")

        // A plan from the match: draft → edited by bob → planned → completed; history kept.
        let plan = try alice.json(["dates", "plan", "create", "--match", matchID])
        let planID = try #require(plan["id"] as? String)
        #expect(plan["status"] as? String == "draft")
        #expect(plan["title"] as? String == "Cook a cuisine neither of you knows")
        #expect(try bob.json(["dates", "plan", "edit", planID, "--date", "2026-12-24", "--time", "19:30"])["revision"] as? Int == 2)
        #expect(try bob.json(["dates", "plan", "status", planID, "planned"])["status"] as? String == "planned")
        #expect(try alice.json(["dates", "plan", "status", planID, "completed"])["status"] as? String == "completed")
        #expect(try bob.failure(["dates", "plan", "status", planID, "draft"]).code == "invalid_status_transition")
        let shown = try bob.json(["dates", "plan", "show", planID])
        #expect((shown["history"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["created", "edited", "status", "status"])
        #expect(shown["startsAt"] as? String == "2026-12-25T01:30:00Z")
        #expect((try alice.json(["dates", "plan", "list"])["plans"] as? [[String: Any]])?.map { $0["id"] as? String } == [planID])

        // The bucket list: alice adds, bob completes, alice removes.
        let item = try alice.json(["bucket", "add", "See the northern lights", "--category", "adventure"])
        let itemID = try #require(item["id"] as? String)
        #expect((try bob.json(["bucket", "list"])["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["See the northern lights"])
        #expect(try bob.json(["bucket", "done", itemID])["completedAt"] is String)
        #expect(try alice.succeed(["bucket", "list"]).hasPrefix("[x] \(itemID)"))
        #expect(try alice.json(["bucket", "remove", itemID])["removed"] as? String == itemID)
        #expect((try bob.json(["bucket", "list"])["items"] as? [[String: Any]])?.isEmpty == true)
        #expect(try bob.failure(["bucket", "done", itemID]).code == "bucket_item_not_found")
        #expect(try bob.failure(["bucket", "add", String(repeating: "x", count: 201)]).code == "invalid_bucket_item")
    }
}
