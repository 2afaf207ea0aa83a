@testable import StreakKit
import Testing

@Suite struct BoardsParserTests {
    let catalog = Fixtures.catalog

    @Test func quordleReadsEachBoardAndCountsAMissAsTen() throws {
        let share = try catalog.parse("Daily Quordle 1012\n6️⃣5️⃣\n🟥8️⃣\nm-w.com/games/quordle/")
        #expect(share.details == .boards(BoardResults(boards: [6, 5, nil, 8], reportedScore: nil)))
        #expect(share.score == 6 + 5 + 10 + 8 && !share.completed)
    }

    @Test func keycapsWithoutVariationSelectorsAndWithSpaces() throws {
        let share = try catalog.parse("Daily Quordle 1012\n6\u{20E3} 5\u{20E3}\n4\u{20E3} 8\u{20E3}")
        #expect(share.score == 23 && share.completed)
    }

    @Test(arguments: [
        "Daily Quordle 1012\n6️⃣5️⃣\n🟥",  // three boards
        "Daily Quordle 1012\n6️⃣6️⃣\n4️⃣8️⃣",  // two boards on one guess
        "Daily Quordle 1012\n6️⃣🔟\n4️⃣8️⃣",  // ten guesses in a nine-guess game
        "Daily Quordle 1012\n6️⃣5️⃣4️⃣\n8️⃣",  // three on a row
        "Daily Quordle 1012\nnice\n6️⃣5️⃣\n4️⃣8️⃣",
        "Daily Octordle #845\n8️⃣4️⃣\n5️⃣🔟\n9️⃣6️⃣\n🕛7️⃣\nScore: 62",  // the score is not the sum
        "Daily Octordle #1013\n8️⃣🔟\n🟥4️⃣\n5️⃣🕛\n🕚6️⃣\nScore: 60",  // a miss counts more than 13
        "Daily Dordle #0999 4&4/7",
        "Daily Dordle #0999 8&4/7",
    ])
    func inconsistentBoardsAreRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }

    @Test func octordleKeepsItsOwnScore() throws {
        let share = try catalog.parse("Daily Octordle #1013\n8️⃣🔟\n🟥4️⃣\n5️⃣🕛\n🕚6️⃣\nScore: 71")
        #expect(share.details == .boards(BoardResults(boards: [8, 10, nil, 4, 5, 12, 11, 6], reportedScore: 71)))
        #expect(share.score == 71 && !share.completed)
    }

    @Test func octordleClocksAreElevenToThirteen() throws {
        let share = try catalog.parse("Daily Octordle #83\n4️⃣🕛\n🔟🕚\n5️⃣6️⃣\n8️⃣🕐")
        #expect(share.details == .boards(BoardResults(boards: [4, 12, 10, 11, 5, 6, 8, 13], reportedScore: nil)))
    }

    @Test func dailyAndWeeklyQuordleAreDifferentGames() throws {
        #expect(try catalog.parse("Daily Quordle 143\n7️⃣4️⃣\n5️⃣6️⃣").game == .quordle)
        #expect(try catalog.parse("Weekly Quordle Challenge 143\n7️⃣4️⃣\n5️⃣6️⃣").game == .quordleWeekly)
        #expect(Game.quordleWeekly.cadence == .weekly)
    }

    @Test func practiceAndSequenceModesAreNotDailyShares() {
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse("Practice Quordle\n7️⃣4️⃣\n5️⃣6️⃣") }
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse("Daily Sequence Octordle #845\nScore: 80") }
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse("Free Dordle 4&6/7") }
    }

    @Test func dordleReadsTheHeader() throws {
        let share = try catalog.parse("Daily Dordle #0412 X&7/7")
        #expect(share.details == .boards(BoardResults(boards: [nil, 7], reportedScore: nil)))
        #expect(share.puzzle == 412 && share.score == 15 && !share.completed)
    }
}
