@testable import StreakKit
import Testing

@Suite struct SpellingBeeParserTests {
    let catalog = Fixtures.catalog

    @Test func rankWordsAndPangrams() throws {
        let share = try catalog.parse("NYT Spelling Bee May 19, 2026\nRank: Amazing\nScore: 98\nWords found: 31\nPangrams: 1")
        #expect(share.details == .spellingBee(SpellingBeeDetails(rank: .amazing, words: 31, pangrams: 1)))
        #expect(share.puzzle == 20_260_519 && share.score == 98)
    }

    @Test func goodStartIsNotGood() throws {
        let share = try catalog.parse("Spelling Bee\nRank: Good Start\nScore: 12")
        #expect(share.details == .spellingBee(SpellingBeeDetails(rank: .goodStart, words: nil, pangrams: nil)))
    }

    @Test func aSentenceAfterTheHeaderCountsWords() throws {
        let share = try catalog.parse("Spelling Bee - I found 42 words\nScore: 120")
        #expect(share.details == .spellingBee(SpellingBeeDetails(rank: nil, words: 42, pangrams: nil)))
    }

    @Test(arguments: [
        "Spelling Bee\nWords: 25\nRank: Genius",  // no score
        "Spelling Bee\nScore: 10\nWords: 25",  // more words than points
        "Spelling Bee\nScore: 100\nRank: Emperor",
        "Spelling Bee\nScore: 5000",
    ])
    func incompleteOrImpossibleSharesAreRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }
}
