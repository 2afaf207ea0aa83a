@testable import StreakKit
import Testing

@Suite struct MiniCrosswordParserTests {
    let catalog = Fixtures.catalog

    @Test func theSentenceWithItsDateNumbersThePuzzle() throws {
        let share = try catalog.parse("I solved the 12/3/2025 New York Times Mini Crossword in 0:45!")
        #expect(share.puzzle == 20_251_203 && share.score == 45 && share.completed)
        #expect(share.details == .timed(TimedDetails(seconds: 45, flawless: false)))
    }

    @Test func aSentenceWithoutADate() throws {
        let share = try catalog.parse("I solved the New York Times Mini Crossword in 1:02!")
        #expect(share.puzzle == nil && share.score == 62)
    }

    @Test func aBareCompletedLineNeedsTheGameChosen() throws {
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse("Completed in 0:45") }
        let share = try catalog.parse("Completed in 0:45", as: .miniCrossword)
        #expect(share.game == .miniCrossword && share.score == 45 && share.puzzle == nil)
        #expect(throws: StreakKitError.self) { try catalog.parse("Completed in 0:45", as: .wordle) }
    }

    @Test(arguments: [
        "I solved the 2/30/2025 New York Times Mini Crossword in 0:45!",  // no such date: no date, and the sentence stops
        "I solved the 12/3/2025 New York Times Mini Crossword in 0:75!",
        "Mini Crossword\nCompleted in a minute",
        "I solved the New York Times Mini Crossword in 24:00:00!",
    ])
    func unreadableTimesAndDatesAreRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }

    @Test func chatThatMentionsSolvingIsNotAShare() {
        #expect(throws: StreakKitError.self) { try catalog.parse("I solved the crossword puzzle in the paper") }
    }
}
