import Foundation
import KindredTestSupport
import Testing

/// `kindred streaks stats|recap`: analytics and SVG charts from the profile's store.
@Suite struct StreaksStatsCommandTests: StreaksProfileSuite {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// Wordle 3, 4, X, 2 on 2026-03-07…10 (Saturday to Tuesday) and Connections solved on 03-10.
    func recordWeek() throws {
        for (day, guesses) in [(7, "2"), (8, "X"), (9, "4"), (10, "3")] {
            let rows = guesses == "X" ? 6 : Int(guesses) ?? 0
            let grid = String(repeating: "⬛🟨⬛⬛⬛\n", count: guesses == "X" ? rows : rows - 1) + (guesses == "X" ? "" : "🟩🟩🟩🟩🟩")
            _ = try json(["add", "--at", "2026-03-\(String(format: "%02d", day))T08:00:00Z", "Wordle \(1_390 + day) \(guesses)/6\n\n\(grid)"])
        }
        _ = try json(["add", "--at", "2026-03-10T09:00:00Z", "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"])
    }

    @Test func statsOverSevenDaysWithTheWordleDistributionAndItsChart() throws {
        try recordWeek()
        let all = try json(["stats", "--range", "7", "--at", "2026-03-10T20:00:00Z"])
        #expect(all["firstDay"] as? String == "2026-03-04" && all["lastDay"] as? String == "2026-03-10")
        #expect(all["played"] as? Int == 5 && all["completed"] as? Int == 4 && all["completionRate"] as? Double == 0.8)
        #expect(all["currentStreak"] as? Int == 2 && all["longestStreak"] as? Int == 2)
        let games = try #require(all["games"] as? [[String: Any]])
        #expect(games.compactMap { $0["game"] as? String } == ["wordle", "connections"])

        let chart = folder.url.appendingPathComponent("wordle.svg").path
        let wordle = try json(["stats", "--game", "wordle", "--range", "30", "--chart", chart, "--at", "2026-03-10T20:00:00Z"])
        #expect(wordle["played"] as? Int == 4 && wordle["averageScore"] as? Double == 3)
        let distribution = try #require(wordle["distribution"] as? [String: Any])
        #expect(distribution["counts"] as? [Int] == [0, 1, 1, 1, 0, 0] && distribution["failed"] as? Int == 1)
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.components(separatedBy: "class=\"bar\"").count - 1 == 7)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<title>Wordle, 2026-02-09 to 2026-03-10: guesses</title>"))

        let calendar = folder.url.appendingPathComponent("calendar.svg").path
        let text = try streaks(["stats", "--range", "30", "--chart", calendar, "--at", "2026-03-10T20:00:00Z"])
        #expect(text.status == 0)
        #expect(text.text.hasPrefix("All games, 2026-02-09 to 2026-03-10: 5 played, 4 completed (80 %), streak 2 (longest 2)\n"))
        #expect(try String(contentsOfFile: calendar, encoding: .utf8).components(separatedBy: "class=\"day\"").count - 1 == 30)
    }

    @Test func recapOfAnIsoWeekWithItsChart() throws {
        try recordWeek()
        let chart = folder.url.appendingPathComponent("week.svg").path
        let recap = try json(["recap", "--week", "2026-W11", "--chart", chart])
        #expect(recap["week"] as? String == "2026-W11" && recap["firstDay"] as? String == "2026-03-09")
        #expect(recap["played"] as? Int == 3 && recap["completed"] as? Int == 3 && recap["daysPlayed"] as? Int == 2)
        #expect(recap["consistency"] as? Double == 2.0 / 7.0 && recap["longestStreak"] as? Int == 2)
        #expect(recap["mostPlayed"] as? String == "wordle")
        #expect(recap["playedPerDay"] as? [Int] == [1, 2, 0, 0, 0, 0, 0])
        #expect(try String(contentsOfFile: chart, encoding: .utf8).components(separatedBy: "class=\"bar\"").count - 1 == 7)

        let thisWeek = try json(["recap", "--at", "2026-03-08T12:00:00Z"])
        #expect(thisWeek["week"] as? String == "2026-W10" && thisWeek["played"] as? Int == 2 && thisWeek["longestStreak"] as? Int == 1)
    }

    @Test func badArgumentsFail() throws {
        #expect(try streaks(["recap", "--week", "2021-W53"]).status != 0)
        #expect(try streaks(["recap", "--week", "2021-53"]).status != 0)
        #expect(try streaks(["stats", "--range", "14"]).status != 0)
        #expect(try streaks(["stats", "--game", "tetris"]).status != 0)
        #expect(try streaks(["stats", "--chart", folder.url.appendingPathComponent("missing/dir/x.svg").path]).status != 0)
    }
}
