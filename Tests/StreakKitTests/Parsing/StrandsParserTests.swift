@testable import StreakKit
import Testing

@Suite struct StrandsParserTests {
    let catalog = Fixtures.catalog

    @Test func themeHintsWordsAndSpangram() throws {
        let share = try catalog.parse("Strands #580\n“Bring it home”\n💡🔵🔵💡\n🔵🟡🔵🔵\n🔵")
        #expect(share.details == .strands(StrandsDetails(theme: "Bring it home", hints: 2, themeWords: 6, spangramPosition: 4)))
        #expect(share.score == 2 && share.completed)
    }

    @Test func theThemeLineMayBeMissing() throws {
        let share = try catalog.parse("Strands #12\n🔵🔵🟡🔵")
        #expect(share.details == .strands(StrandsDetails(theme: "", hints: 0, themeWords: 3, spangramPosition: 3)))
    }

    @Test(arguments: [
        "Strands #123\n“Theme words”\n🔵🔵🔵🔵",  // no spangram
        "Strands #123\n“Theme words”\n🔵🟡🔵🟡",  // two spangrams
        "Strands #123\n“Theme words”",  // no rows
        "Strands #123\n“Theme words”\n🟡",  // no theme words
    ])
    func impossibleBoardsAreRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }

    @Test func aHeaderNeedsTheHash() {
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse("Strands 123\n🔵🟡") }
    }
}
