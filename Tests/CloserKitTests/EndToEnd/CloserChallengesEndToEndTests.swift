import Foundation
import KindredTestSupport
import Testing

/// Two phones (`kindred closer challenge … --json`, each with its own `--profile`) against a
/// live `kindred serve`: one joins a challenge, both mark day 1, both see the same progress, a
/// future day and an unknown challenge are refused with the server's code, and either leaves.
@Suite(.serialized) struct CloserChallengesEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test(.timeLimit(.minutes(4)))
    func twoPhonesJoinAChallengeAndBothMarkDayOne() async throws {
        #expect(try await LiveServer.running { try flow($0) }.stopped.status == 0)
    }

    func flow(_ server: LiveServer) throws {
        let alice = CloserPhone(profile: folder.url.appendingPathComponent("alice").path, server: server.url)
        let bob = CloserPhone(profile: folder.url.appendingPathComponent("bob").path, server: server.url)
        try alice.signUp("alice")
        try bob.signUp("bob")
        let share = try #require(try alice.succeed(["invite"]).split(separator: "\n").last.map(String.init))
        #expect(try bob.succeed(["accept", share]).hasPrefix("paired: couple "))

        let catalog = try alice.json(["challenge", "list"])["challenges"] as? [[String: Any]] ?? []
        #expect(catalog.count >= 10)
        #expect(catalog.first?["id"] as? String == "gratitude-7")
        #expect(try alice.succeed(["challenge", "list"]).hasPrefix("gratitude-7  [appreciation, 7 days]  Seven days of thanks"))

        let joined = try alice.json(["challenge", "join", "gratitude-7"])
        let instanceID = try #require(joined["id"] as? String)
        #expect(joined["currentDay"] as? Int == 1)
        let today = try bob.json(["challenge", "today"])["instances"] as? [[String: Any]]
        #expect(today?.map { $0["id"] as? String } == [instanceID])
        #expect(today?.first?["todayStep"] as? String == "Thank your partner for something small they did today, and say what it made easier for you.")
        #expect(try bob.failure(["challenge", "join", "gratitude-7"]).code == "challenge_already_active")

        // Both mark day 1 (alice by challenge id, bob by instance id); both see both.
        _ = try alice.json(["challenge", "done", "gratitude-7"])
        _ = try bob.json(["challenge", "done", instanceID, "--day", "1"])
        for phone in [alice, bob] {
            let progress = try phone.json(["challenge", "progress", instanceID])
            #expect((progress["partners"] as? [[String: Any]])?.map { $0["doneCount"] as? Int } == [1, 1])
            #expect(((progress["days"] as? [[String: Any]])?.first?["doneBy"] as? [String])?.count == 2)
        }
        #expect(try alice.succeed(["challenge", "progress"]).hasPrefix("gratitude-7 (\(instanceID)): active, day 1/7"))

        // Bad input: one line on standard error, the server's code in the JSON error.
        let future = try alice.failure(["challenge", "done", instanceID, "--day", "2"])
        #expect(future.code == "challenge_day_not_open")
        #expect(future.stderr.split(separator: "\n").count == 1, "\(future.stderr)")
        #expect(try alice.failure(["challenge", "done", instanceID, "--day", "9"]).code == "invalid_challenge_day")
        #expect(try alice.failure(["challenge", "join", "no-such-challenge"]).code == "challenge_not_found")
        #expect(try alice.failure(["challenge", "join", "love-notes-10"]).code == "premium_required")

        let left = try bob.json(["challenge", "leave", "gratitude-7"])
        #expect(left["status"] as? String == "abandoned")
        #expect((try alice.json(["challenge", "today"])["instances"] as? [[String: Any]])?.isEmpty == true)
        #expect(try alice.failure(["challenge", "leave", "gratitude-7"]).code == "invalid_input")
    }
}
