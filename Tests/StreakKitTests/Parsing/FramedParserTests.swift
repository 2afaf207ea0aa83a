@testable import StreakKit
import Testing

@Suite struct FramedParserTests {
    let catalog = Fixtures.catalog

    @Test(arguments: [
        ("Framed #1001\n🎥 🟥 🟥 🟩 ⬛ ⬛ ⬛\n\nhttps://framed.wtf", 3, true, 2),
        ("Framed #1002\n🎥 🟩 ⬛ ⬛ ⬛ ⬛ ⬛", 1, true, 0),
        ("Framed #1003\n🎥 🟥 🟥 🟥 🟥 🟥 🟥", 7, false, 6),
    ])
    func framesNeeded(_ text: String, _ score: Int, _ completed: Bool, _ wrong: Int) throws {
        let share = try catalog.parse(text)
        #expect(share.score == score && share.completed == completed)
        #expect(share.details == .framed(FramedDetails(wrongGuesses: wrong)))
    }

    @Test(arguments: [
        "Framed #1001\n🎥 🟥 🟩 🟩 ⬛ ⬛ ⬛", "Framed #1001\n🎥 🟥 ⬛ 🟩 ⬛ ⬛ ⬛", "Framed #1001\n🎥 🟥 🟩 ⬛ ⬛ ⬛",
        "Framed #1001\n🟥 🟩 ⬛ ⬛ ⬛ ⬛", "Framed #1001",
    ])
    func impossibleFramesAreRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }
}
