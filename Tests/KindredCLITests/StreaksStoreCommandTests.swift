import Foundation
import KindredTestSupport
import Testing

/// `kindred streaks add|list|streaks|achievements|import|export`: the profile's store, no server.
@Suite struct StreaksStoreCommandTests {
    let folder: TemporaryDirectory
    var profile: String { folder.url.appendingPathComponent("phone").path }

    init() throws {
        folder = try TemporaryDirectory()
    }

    static func wordle(_ puzzle: Int, guesses: Int) -> String {
        "Wordle \(puzzle) \(guesses)/6\n\n" + String(repeating: "⬛🟨⬛⬛⬛\n", count: guesses - 1) + "🟩🟩🟩🟩🟩"
    }

    func streaks(_ arguments: [String], stdin: String = "") throws -> ChildProcess.Result {
        try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["streaks"] + arguments + ["--profile", profile], input: Array(stdin.utf8),
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }.merging(["TZ": "UTC"]) { $1 })
    }

    func json(_ arguments: [String], stdin: String = "") throws -> [String: Any] {
        let result = try streaks(arguments + ["--json"], stdin: stdin)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
    }

    @Test func addingThreeDaysPrintsTheResultTheStreakAndTheBronzeUnlockOnce() throws {
        var last: [String: Any] = [:]
        for day in 0..<3 {
            last = try json(["add", "--at", "2026-03-0\(2 + day)T08:15:00Z"], stdin: Self.wordle(1_400 + day, guesses: 3))
            #expect(last["inserted"] as? Bool == true)
            #expect((last["streak"] as? [String: Any])?["current"] as? Int == day + 1)
        }
        let result = try #require(last["result"] as? [String: Any])
        #expect(result["id"] as? String == "wordle:1402:2026-03-04")
        #expect(result["day"] as? String == "2026-03-04")
        #expect(result["recordedAt"] as? String == "2026-03-04T08:15:00.000Z")
        let unlocked = try #require(last["newAchievements"] as? [[String: Any]])
        #expect(unlocked.compactMap { $0["id"] as? String } == ["achievement.streak-master.bronze"])

        let again = try json(["add", "--at", "2026-03-04T09:00:00Z", Self.wordle(1_402, guesses: 3)])
        #expect(again["inserted"] as? Bool == false)
        #expect((again["newAchievements"] as? [Any])?.isEmpty == true)

        let text = try streaks(["add", "--at", "2026-03-05T07:00:00Z", Self.wordle(1_403, guesses: 2)])
        #expect(text.status == 0)
        #expect(text.text == "2026-03-05  Wordle #1403: completed, score 2 (max 6)\nstreak: 4 (longest 4)\n🏆 Perfectionist — Bronze\n🏆 Personal Best — Bronze\n")
    }

    @Test func listFiltersAndLimitsNewestFirst() throws {
        _ = try json(["add", "--at", "2026-03-02T08:00:00Z", Self.wordle(1_400, guesses: 4)])
        _ = try json(["add", "--at", "2026-03-02T09:00:00Z", "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"])
        _ = try json(["add", "--at", "2026-03-03T08:00:00Z", Self.wordle(1_401, guesses: 5)])
        let all = try #require(try json(["list"])["results"] as? [[String: Any]])
        #expect(all.compactMap { $0["id"] as? String } == ["wordle:1401:2026-03-03", "connections:512:2026-03-02", "wordle:1400:2026-03-02"])
        let wordle = try #require(try json(["list", "--game", "wordle", "--limit", "1"])["results"] as? [[String: Any]])
        #expect(wordle.compactMap { $0["id"] as? String } == ["wordle:1401:2026-03-03"])
        #expect(try streaks(["list", "--limit", "0"]).status != 0)
        #expect(try streaks(["list", "--game", "tetris"]).status != 0)

        let achievements = try #require(try json(["achievements"])["achievements"] as? [[String: Any]])
        #expect(achievements.count == 10)
        let collector = try #require(achievements.first { $0["category"] as? String == "game-collector" })
        #expect(collector["value"] as? Int == 2 && collector["tier"] as? String == "bronze")
        let streakList = try #require(try json(["streaks"])["streaks"] as? [[String: Any]])
        #expect(streakList.compactMap { $0["game"] as? String } == ["wordle", "connections"])
        #expect(streakList.first?["longest"] as? Int == 2)
    }

    @Test func textThatIsNoShareIsATypedErrorAndNothingIsStored() throws {
        let result = try streaks(["add", "--json", "I had a lovely day at the beach"])
        #expect(result.status != 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "unrecognized")
        #expect((try json(["list"])["results"] as? [Any])?.isEmpty == true)
        #expect(try streaks(["add", "--at", "yesterday", Self.wordle(1_400, guesses: 3)]).status != 0)
        #expect(try streaks(["add", "--game", "tetris", "Completed in 0:45"]).status != 0)
    }

    @Test func exportThenImportIntoAnotherProfileGivesTheSameCSV() throws {
        for day in 0..<3 { _ = try json(["add", "--at", "2026-03-0\(2 + day)T08:00:00Z", Self.wordle(1_400 + day, guesses: 3 + day)]) }
        let csvPath = folder.url.appendingPathComponent("results.csv").path
        #expect(try json(["export", csvPath])["exported"] as? Int == 3)
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8)
        #expect(csv == "date,game,puzzle,score,maxAttempts,completed\r\n2026-03-02,wordle,1400,3,6,true\r\n"
            + "2026-03-03,wordle,1401,4,6,true\r\n2026-03-04,wordle,1402,5,6,true\r\n")

        let other = folder.url.appendingPathComponent("other").path
        let imported = try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["streaks", "import", csvPath, "--profile", other, "--json"],
            environment: ["TZ": "UTC", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(imported.text.utf8)) as? [String: Any]
        #expect(object?["inserted"] as? Int == 3 && object?["duplicates"] as? Int == 0)
        let exported = try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["streaks", "export", "-", "--profile", other],
            environment: ["TZ": "UTC", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"])
        #expect(exported.text == csv)
    }

    @Test func aLargeImportReportsProgressOnStandardErrorAndABadRowNamesItsLine() throws {
        var csv = "date,game,puzzle,score,maxAttempts,completed\n"
        // 2,000 distinct puzzles on six days (one a year): days repeat, puzzles do not.
        for index in 0..<2_000 { csv += "\(2020 + index / 365)-01-01,wordle,\(index),3,6,true\n" }
        let path = try folder.file("big.csv", Array(csv.utf8))
        let result = try streaks(["import", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("import: checked 1000 of 2000 rows\nimport: checked 2000 of 2000 rows\n"))
        #expect(result.text.hasPrefix("imported 2000 results (0 already recorded)"))

        let bad = try folder.file("bad.csv", Array("date,game,puzzle,score,maxAttempts,completed\n2026-03-02,wordle,1,3,6,maybe\n".utf8))
        let refused = try streaks(["import", bad, "--json"])
        #expect(refused.status != 0)
        let object = try JSONSerialization.jsonObject(with: Data(refused.text.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "bad_bool")
        #expect(refused.stderr.contains("line 2: completed maybe is neither true nor false"))
    }

    @Test func accountCommandsNeverTakeAPasswordFlag() throws {
        let result = try streaks(["signup", "--email", "a@example.com", "--name", "A", "--password", "secret"])
        #expect(result.status != 0)
        let missing = try streaks(["signup", "--email", "a@example.com", "--name", "A", "--server", "http://127.0.0.1:1"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no password: set KINDRED_PASSWORD or pass --password-stdin"))
        let badServer = try streaks(["sync", "--server", "ftp://example.com"])
        #expect(badServer.stderr.contains("--server: \"ftp://example.com\" is not an http(s) URL"))
        let offline = try streaks(["sync", "--server", "http://127.0.0.1:1", "--json"])
        #expect(offline.status != 0)
        let object = try JSONSerialization.jsonObject(with: Data(offline.text.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "not_signed_in")
    }
}
