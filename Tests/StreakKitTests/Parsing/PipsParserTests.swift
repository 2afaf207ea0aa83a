@testable import StreakKit
import Testing

@Suite struct PipsParserTests {
    let catalog = Fixtures.catalog

    @Test(arguments: [
        ("Pips #45 Easy 🟢\n1:12", PipsDifficulty.easy, 72), ("Pips #120\nEasy 🟢 0:22", .easy, 22),
        ("Pips #46 Medium 🟡\n2:03", .medium, 123), ("Pips #46 Hard 🟣\n4:59", .hard, 299),
    ])
    func difficultyAndTime(_ text: String, _ difficulty: PipsDifficulty, _ seconds: Int) throws {
        let share = try catalog.parse(text)
        #expect(share.details == .pips(PipsDetails(difficulty: difficulty, seconds: seconds)))
        #expect(share.variant == difficulty.rawValue && share.score == seconds)
    }

    @Test func eachDifficultyIsItsOwnResultOfTheDay() throws {
        let day = Fixtures.monday
        let easy = GameResult(share: try catalog.parse("Pips #45 Easy\n1:12"), recordedAt: Fixtures.instant(day, hour: 9), timeZone: Fixtures.utc)
        let hard = GameResult(share: try catalog.parse("Pips #45 Hard\n3:12"), recordedAt: Fixtures.instant(day, hour: 9), timeZone: Fixtures.utc)
        #expect(easy.id != hard.id)
        #expect(easy.id.rawValue == "pips:45-easy:2026-03-02")
    }

    @Test(arguments: ["Pips #45\n1:12", "Pips #45 Easy", "Pips #45 Extreme\n1:12"])
    func aShareNeedsDifficultyAndTime(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }
}
