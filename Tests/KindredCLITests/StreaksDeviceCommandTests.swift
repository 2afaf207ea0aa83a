import Foundation
import KindredTestSupport
import Testing

/// `kindred streaks guest|inbox|reminder|link` and `stats --csv`: the device-side commands, no server.
@Suite struct StreaksDeviceCommandTests: StreaksProfileSuite {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// A command that must fail with --json: its error code.
    func failure(_ arguments: [String]) throws -> String {
        let result = try streaks(arguments + ["--json"])
        #expect(result.status != 0, "\(arguments) succeeded: \(result.text)")
        let object = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any]
        return ((object?["error"] as? [String: Any])?["code"] as? String) ?? "?"
    }

    @Test func aGuestPlaysAndTheHostComesBackByteForByte() throws {
        for day in 0..<3 {
            _ = try json(["add", "--at", "2026-03-0\(2 + day)T08:15:00Z", StreaksStoreCommandTests.wordle(1_400 + day, guesses: 3)])
        }
        let export = folder.url.appendingPathComponent("before.csv").path
        _ = try json(["export", export])
        let waiting = try streaks(["sync", "--server", "http://127.0.0.1:9", "--json"])
        #expect(waiting.status != 0)

        let started = try json(["guest", "start"])
        #expect(started["guest"] as? Bool == true && started["hostResults"] as? Int == 3)
        _ = try json(["add", "--at", "2026-03-05T10:00:00Z", StreaksStoreCommandTests.wordle(1_403, guesses: 2)])
        #expect((try json(["list"])["results"] as? [Any])?.count == 1)
        #expect(try failure(["sync", "--server", "http://127.0.0.1:9"]) == "guest_mode")
        #expect(try failure(["board", "wordle", "--server", "http://127.0.0.1:9"]) == "guest_mode")
        #expect(try failure(["guest", "on"]) == "guest_mode")
        #expect(try json(["guest", "status"])["guestResults"] as? Int == 1)

        let stopped = try json(["guest", "off"])
        #expect(stopped["discardedResults"] as? Int == 1 && stopped["restoredResults"] as? Int == 3)
        #expect(try json(["guest", "status"])["guest"] as? Bool == false)
        let after = folder.url.appendingPathComponent("after.csv").path
        _ = try json(["export", after])
        #expect(try Data(contentsOf: URL(fileURLWithPath: after)) == Data(contentsOf: URL(fileURLWithPath: export)))
        let ids = try #require(try json(["list"])["results"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids == ["wordle:1402:2026-03-04", "wordle:1401:2026-03-03", "wordle:1400:2026-03-02"])
        #expect(try failure(["guest", "stop"]) == "guest_mode")
    }

    @Test func twoAppsDrainingTheInboxAtOnceAddEachShareOnce() async throws {
        for index in 0..<12 {
            let dropped = try json(["inbox", "drop", "--at", "2026-03-02T08:\(10 + index):00Z", StreaksStoreCommandTests.wordle(1_500 + index, guesses: 4)])
            #expect((dropped["file"] as? String)?.hasSuffix(".share") == true)
        }
        _ = try json(["inbox", "drop", "--at", "2026-03-02T09:00:00Z", "what a day"])
        #expect((try json(["inbox", "list"])["files"] as? [String])?.count == 13)
        let outputs = try await withThrowingTaskGroup(of: ChildProcess.Result.self) { group in
            for _ in 0..<2 { group.addTask { try self.streaks(["inbox", "drain", "--json"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outputs.map(\.status) == [0, 0], "\(outputs.map(\.stderr))")
        let runs = try outputs.map { try #require(try JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any]) }
        let added = runs.flatMap { ($0["added"] as? [[String: Any]]) ?? [] }.compactMap { $0["id"] as? String }
        #expect(added.count == 12 && Set(added).count == 12)
        let rejected = runs.flatMap { ($0["rejected"] as? [[String: Any]]) ?? [] }
        #expect(rejected.count == 1 && (rejected.first?["reason"] as? String) == "no game share was recognised in the text")
        #expect((try json(["list"])["results"] as? [Any])?.count == 12)
        #expect((try json(["inbox", "list"])["files"] as? [String]) == [])
        let again = try json(["inbox", "drain"])
        #expect((again["added"] as? [Any])?.isEmpty == true && (again["files"] as? [Any])?.isEmpty == true)
    }

    @Test func theReminderFollowsThePlayerOrTheirOwnTime() throws {
        #expect(try json(["reminder", "--now", "2026-03-10T12:00:00Z"])["source"] as? String == "default")
        for day in 0..<5 {
            _ = try json(["add", "--at", "2026-03-0\(2 + day)T20:15:00Z", StreaksStoreCommandTests.wordle(1_400 + day, guesses: 3)])
        }
        // Cached: computed on the 10th, reused on the 11th, recomputed on the 12th.
        #expect(try json(["reminder", "--now", "2026-03-11T12:00:00Z"])["time"] as? String == "19:00")
        let smart = try json(["reminder", "--now", "2026-03-12T12:00:00Z"])
        #expect(smart["time"] as? String == "19:30" && smart["recomputed"] as? Bool == true && smart["source"] as? String == "smart")
        #expect((smart["histogram"] as? [Int])?[20] == 5)
        let own = try json(["reminder", "--at", "07:45", "--now", "2026-03-12T12:00:00Z"])
        #expect(own["time"] as? String == "07:45" && own["smart"] as? Bool == false && own["source"] as? String == "user")
        #expect(try json(["reminder", "--smart", "on", "--now", "2026-03-12T12:00:00Z"])["time"] as? String == "19:30")
        let bad = try streaks(["reminder", "--at", "25:00"])
        #expect(bad.status != 0 && bad.stderr.contains("--at"))
    }

    @Test func aLinkPrintsItsTypedPayload() throws {
        _ = try json(["add", "--at", "2026-03-02T08:15:00Z", StreaksStoreCommandTests.wordle(1_400, guesses: 3)])
        let game = try json(["link", "streaksync://game/wordle", "--at", "2026-03-02T12:00:00Z"])
        #expect(game["kind"] as? String == "game" && (game["streak"] as? [String: Any])?["current"] as? Int == 1)
        let result = try json(["link", "streaksync://result/wordle:1400:2026-03-02"])
        #expect(result["stored"] as? Bool == true && (result["result"] as? [String: Any])?["score"] as? Int == 3)
        #expect(try json(["link", "streaksync://result/wordle:1:2026-03-02"])["stored"] as? Bool == false)
        let friend = try json(["link", "STREAKSYNC://friend?code=k7qx2m"])
        #expect(friend["kind"] as? String == "friend" && friend["code"] as? String == "K7QX2M")
        #expect(try json(["link", "streaksync://achievement/achievement.streak-master"])["known"] as? Bool == true)
        #expect(try failure(["link", "https://example.com/game/wordle"]) == "wrong_scheme")
        #expect(try failure(["link", "streaksync://game/chess"]) == "unknown_game")
        #expect(try failure(["link", "streaksync://friend?code=O0O0O0"]) == "invalid_code")
    }

    @Test func statsWritesTheRangesResultsAsCSV() throws {
        _ = try json(["add", "--at", "2026-03-01T08:00:00Z", StreaksStoreCommandTests.wordle(1_399, guesses: 2)])
        _ = try json(["add", "--at", "2026-03-09T08:00:00Z", StreaksStoreCommandTests.wordle(1_407, guesses: 4)])
        _ = try json(["add", "--at", "2026-03-10T09:00:00Z", "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"])
        let file = folder.url.appendingPathComponent("week.csv").path
        let stats = try json(["stats", "--range", "7", "--csv", file, "--at", "2026-03-10T12:00:00Z"])
        #expect((stats["csv"] as? [String: Any])?["rows"] as? Int == 2)
        #expect(try String(contentsOfFile: file, encoding: .utf8)
            == "date,game,puzzle,score,maxAttempts,completed\r\n2026-03-09,wordle,1407,4,6,true\r\n2026-03-10,connections,512,4,7,true\r\n")
        let stdout = try streaks(["stats", "--game", "wordle", "--range", "30", "--csv", "-", "--at", "2026-03-10T12:00:00Z"])
        #expect(stdout.text == "date,game,puzzle,score,maxAttempts,completed\r\n2026-03-01,wordle,1399,2,6,true\r\n2026-03-09,wordle,1407,4,6,true\r\n")
    }
}
