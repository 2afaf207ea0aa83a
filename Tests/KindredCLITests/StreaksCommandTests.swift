import Foundation
import KindredTestSupport
import Testing

/// `kindred streaks parse` and `games`: no profile, no server.
@Suite struct StreaksCommandTests {
    func streaks(_ arguments: [String], stdin: String = "") throws -> ChildProcess.Result {
        try ChildProcess.run(ChildProcess.kindredExecutable.path, ["streaks"] + arguments, input: Array(stdin.utf8))
    }

    @Test func aWordleShareFromStandardInputIsOneJSONObject() throws {
        let share = "good morning!\r\nWordle 1,492 3/6*\r\n\r\n⬛🟨⬛⬛⬛\r\n🟩🟩⬛⬛🟩\r\n🟩🟩🟩🟩🟩\r\nsee you"
        let result = try streaks(["parse", "--json"], stdin: share)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        #expect(object["game"] as? String == "wordle")
        #expect(object["puzzle"] as? Int == 1492)
        #expect(object["score"] as? Int == 3)
        #expect(object["max"] as? Int == 6)
        #expect(object["completed"] as? Bool == true)
        #expect(object["kind"] as? String == "guessGrid")
        #expect((object["details"] as? [String: Any])?["hardMode"] as? Bool == true)
    }

    @Test func aFailedConnectionsFromAnArgumentReadsAsFailed() throws {
        let share = "Connections\nPuzzle #512\n🟨🟩🟨🟨\n🟨🟨🟩🟨\n🟨🟨🟨🟩\n🟩🟨🟨🟨"
        let result = try streaks(["parse", share])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.hasPrefix("Connections #512: failed"))
    }

    @Test func textThatIsNoShareIsAnErrorNotAGuess() throws {
        let result = try streaks(["parse", "--json", "I had a lovely day at the beach"])
        #expect(result.status != 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "unrecognized")
        #expect(try streaks(["parse", "--game", "tetris", "Completed in 0:45"]).status != 0)
    }

    @Test func theGamesListHasEveryGameOnce() throws {
        let result = try streaks(["games", "--json"])
        #expect(result.status == 0)
        let games = try #require((try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])?["games"] as? [[String: Any]])
        let ids = games.compactMap { $0["id"] as? String }
        #expect(ids.count >= 17 && Set(ids).count == ids.count)
        #expect(ids.contains("wordle") && ids.contains("connections") && ids.contains("linkedin-pinpoint"))
    }
}
