@testable import StreakKit
import Testing

@Suite struct DetectionTests {
    let catalog = Fixtures.catalog

    @Test func theCatalogHasEveryGameOnceWithStableIds() {
        #expect(catalog.games.count >= 17)
        #expect(Set(catalog.games.map(\.id)).count == catalog.games.count)
        #expect(catalog.games.map(\.id.rawValue) == [
            "wordle", "nerdle", "quordle", "quordle-weekly", "octordle", "dordle", "connections", "strands", "spelling-bee",
            "mini-crossword", "pips", "linkedin-queens", "linkedin-tango", "linkedin-crossclimb", "linkedin-zip",
            "linkedin-pinpoint", "linkedin-mini-sudoku", "framed",
        ])
        #expect(Set(catalog.games.map(\.scoring)) == Set(ScoringModel.allCases))
    }

    @Test(arguments: Game.all)
    func everyExampleShareParsesToItsGame(_ game: Game) throws {
        let share = try catalog.parse(game.exampleShare)
        #expect(share.game == game.id && game.admits(share))
    }

    @Test func otherGamesNamesInTheChatDoNotWin() throws {
        let text = """
            Wordle was brutal and Connections even worse lol. Here's my Quordle:

            Daily Quordle 1012
            6️⃣5️⃣
            🟥8️⃣
            m-w.com/games/quordle/
            """
        #expect(try catalog.parse(text).game == .quordle)
        #expect(catalog.detect(text) == .quordle)
    }

    @Test func aGarbledFirstShareFallsThroughToTheNextThatParses() throws {
        let text = "Wordle 1,492 3/6\n🟩🟩🟩🟩🟩\n\nConnections\nPuzzle #603\n🟩🟩🟩🟩\n🟨🟨🟨🟨\n🟪🟪🟪🟪\n🟦🟦🟦🟦"
        #expect(try catalog.parse(text).game == .connections)
        #expect(try catalog.parseAll(text).map(\.game) == [.connections])
    }

    @Test func whenNothingParsesTheFirstHeadersErrorIsThrown() {
        #expect(throws: StreakKitError.malformed(game: .wordle, reason: "the header says 3/6 but the grid has 1 rows")) {
            try catalog.parse("Wordle 1,492 3/6\n🟩🟩🟩🟩🟩")
        }
    }

    @Test(arguments: ["", "   \n\r\n\t", "\u{200B}\u{FEFF}"])
    func emptyText(_ text: String) {
        #expect(throws: StreakKitError.emptyText) { try catalog.parse(text) }
    }

    @Test(arguments: ["hello", "Just a random message about games", "🟩🟩🟩🟩🟩", "#1 3/6", "Puzzle #512"])
    func unknownText(_ text: String) {
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse(text) }
        #expect(catalog.detect(text) == nil)
    }

    @Test func anOverlongTextIsNotParsed() {
        let text = "Wordle 1,492 3/6\n" + String(repeating: "x", count: ShareText.byteLimit)
        #expect(throws: StreakKitError.textTooLong(bytes: text.utf8.count, limit: ShareText.byteLimit)) { try catalog.parse(text) }
    }

    @Test func lineBreaksOfEveryKind() throws {
        for separator in ["\n", "\r\n", "\r", "\u{2028}", "\n\n\n", " \r\n \r\n"] {
            let text = ["Connections", "Puzzle #603", "🟩🟩🟩🟩", "🟨🟨🟨🟨", "🟪🟪🟪🟪", "🟦🟦🟦🟦"].joined(separator: separator)
            #expect(try catalog.parse(text).puzzle == 603, "\(separator.unicodeScalars.map(\.value))")
        }
    }

    @Test func recordingTheSameShareTwiceGivesTheSameId() throws {
        let text = Game.wordle.exampleShare
        let morning = try catalog.record(text, at: Fixtures.instant(Fixtures.monday, hour: 8), in: Fixtures.utc)
        let evening = try catalog.record(text, at: Fixtures.instant(Fixtures.monday, hour: 21), in: Fixtures.utc)
        #expect(morning.id == evening.id)
        #expect(morning.id.rawValue == "wordle:1492:2026-03-02")
        #expect(GameResult.deduplicated([evening, morning]) == [morning])
        let nextDay = try catalog.record(text, at: Fixtures.instant(Fixtures.monday.adding(days: 1), hour: 8), in: Fixtures.utc)
        #expect(nextDay.id != morning.id)
        #expect(GameResult.deduplicated([nextDay, morning]) == [morning], "a re-pasted puzzle keeps its first day")
    }

    @Test func unknownGame() {
        #expect(throws: StreakKitError.unknownGame("chess")) { try catalog.parse("e4 e5", as: "chess") }
    }
}
