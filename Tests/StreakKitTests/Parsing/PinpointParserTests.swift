@testable import StreakKit
import Testing

@Suite struct PinpointParserTests {
    let catalog = Fixtures.catalog

    @Test func emojiFormat() throws {
        let share = try catalog.parse("Pinpoint #542\n🤔 📌 ⬜ ⬜ ⬜ (2/5)\nlnkd.in/pinpoint.")
        #expect(share.details == .pinpoint(PinpointDetails(guesses: 2, matchPercentages: [], format: .emoji)))
        #expect(share.score == 2 && share.completed)
    }

    @Test func numberedFormatKeepsThePercentages() throws {
        let share = try catalog.parse("Pinpoint #300 | 3 guesses\n1️⃣ | 12% match\n2️⃣ | 47% match\n3️⃣ | 100% match 📌")
        #expect(share.details == .pinpoint(PinpointDetails(guesses: 3, matchPercentages: [12, 47, 100], format: .numbered)))
    }

    @Test func anUnsolvedPuzzleNeverScoresLikeASolvedOne() throws {
        let emoji = try catalog.parse("Pinpoint #560\n🤔 🤔 🤔 🤔 🤔\nlnkd.in/pinpoint.")
        let numbered = try catalog.parse("Pinpoint #554 | 5 guesses\n1️⃣ | 81% match\n2️⃣ | 92% match\n3️⃣ | 2% match\n4️⃣ | 5% match\n5️⃣ | 6% match")
        for share in [emoji, numbered] { #expect(!share.completed && share.score == 6) }
    }

    @Test func withoutRowsFewerThanFiveGuessesMeansSolved() throws {
        #expect(try catalog.parse("Pinpoint #300 | 3 guesses").completed)
        #expect(throws: StreakKitError.self) { try catalog.parse("Pinpoint #300 | 5 guesses") }
    }

    @Test(arguments: [
        "Pinpoint #561\n🤔 ⬜ ⬜ ⬜ ⬜ (0/5)",  // no pin
        "Pinpoint #561\n🤔 📌 ⬜ ⬜ ⬜ (3/5)",  // count disagrees
        "Pinpoint #561\n📌 🤔 ⬜ ⬜ ⬜",  // out of order
        "Pinpoint #561\n🤔 📌 ⬜ ⬜",  // four marks
        "Pinpoint #300 | 3 guesses\n1️⃣ | 12% match\n2️⃣ | 100% match 📌",  // rows disagree with the count
        "Pinpoint #300 | 3 guesses\n1️⃣ | 12% match\n3️⃣ | 47% match\n2️⃣ | 100% match 📌",
        "Pinpoint #300 | 2 guesses\n1️⃣ | 100% match\n2️⃣ | 100% match 📌",
        "Pinpoint #300 | 2 guesses\n1️⃣ | 12% match\n2️⃣ | 140% match 📌",
        "Pinpoint #300 | 6 guesses",
    ])
    func impossibleGuessesAreRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }

    @Test func anotherGamesKeycapsAreNotPinpointGuesses() throws {
        let text = "Crossclimb #398 | 0:40 and flawless\nFill order: 1️⃣ 2️⃣ 3️⃣ 4️⃣ 5️⃣ ⬆️ ⬇️ 🪜\nlnkd.in/crossclimb.\n\nPinpoint #560\n🤔 🤔 🤔 🤔 🤔"
        let pinpoint = try #require(try catalog.parseAll(text).first { $0.game == .pinpoint })
        #expect(!pinpoint.completed && pinpoint.puzzle == 560)
    }
}
