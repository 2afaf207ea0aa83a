@testable import StreakKit
import Testing

@Suite struct GuessGridParserTests {
    let catalog = Fixtures.catalog

    @Test func wordleKeepsTheGridAndHardMode() throws {
        let share = try catalog.parse("Wordle 1,492 3/6*\n\n⬛🟨⬛⬛⬛\n🟩⬛🟩🟨⬛\n🟩🟩🟩🟩🟩")
        guard case .guessGrid(let grid) = share.details else { Issue.record("not a grid"); return }
        #expect(grid.hardMode)
        #expect(grid.rows.count == 3)
        #expect(grid.rows[0] == [.absent, .present, .absent, .absent, .absent])
        #expect(grid.rows[2].allSatisfy { $0 == .correct })
    }

    @Test func aMissScoresOneMoreThanTheGuessesAllowed() throws {
        let share = try catalog.parse("Wordle 1,492 X/6")
        #expect(share.score == 7 && share.maxScore == 6 && !share.completed)
    }

    @Test(arguments: ["Wordle 1492 3/6", "Wordle 1,492 3/6", "Wordle 1.492 3/6", "Wordle 1\u{202F}492 3/6", "Wordle 1'492 3/6"])
    func thousandsSeparators(_ text: String) throws {
        #expect(try catalog.parse(text).puzzle == 1492)
    }

    @Test(arguments: [
        "Wordle 1,492 3/6\n🟩🟩🟩🟩🟩",  // three guesses, one row
        "Wordle 1,492 2/6\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛",  // no solved row
        "Wordle 1,492 X/6\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩",  // a miss that was solved
        "Wordle 1,492 2/6\n⬛⬛⬛⬛\n🟩🟩🟩🟩🟩",  // a row of four
        "Wordle 1,492 2/6\n🟩🟩🟩🟩🟩\n🟩🟩🟩🟩🟩",  // solved twice
        "Wordle 1,492 2/6\n🟪⬛⬛⬛⬛ \n🟩🟩🟩🟩🟩",  // Nerdle's purple in Wordle: the grid ends early
    ])
    func aGridThatContradictsTheHeaderIsRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }

    @Test(arguments: ["Wordle 1,492 7/6", "Wordle 1,492 0/6"])
    func guessesOutOfBounds(_ text: String) {
        #expect(throws: StreakKitError.outOfBounds(game: .wordle, field: "guesses", value: Int(String(text.dropFirst(13).prefix(1)))!)) {
            try catalog.parse(text)
        }
    }

    @Test(arguments: [
        "Wordle 1,492 3/7", "Wordle 1,49 3/6", "Wordle 12,34 3/6", "Wordle 1,492 3/6 was easy", "Wordle is hard 3/6",
        "I love Wordle", "Wordle1492 3/6", "Wordle 1,492 3 / 6",
    ])
    func notAWordleHeader(_ text: String) {
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse(text) }
    }

    @Test func nerdleRowsAreEightWide() throws {
        let share = try catalog.parse("nerdlegame 728 2/6\n\n🟪⬛🟪🟪⬛🟪⬛⬛\n🟩🟩🟩🟩🟩🟩🟩🟩")
        guard case .guessGrid(let grid) = share.details else { Issue.record("not a grid"); return }
        #expect(grid.rows.map(\.count) == [8, 8] && !grid.hardMode)
        #expect(throws: StreakKitError.self) { try catalog.parse("nerdlegame 728 1/6\n🟩🟩🟩🟩🟩") }
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse("nerdlegame 728 3/6*") }
    }
}
