@testable import StreakKit
import Testing

/// Every real share of the corpus parses to the game, puzzle, score and outcome it states.
@Suite struct ShareCorpusTests {
    @Test(arguments: ShareCorpus.all)
    func parsesToWhatTheShareSays(_ share: ShareCase) throws {
        let parsed = try Fixtures.catalog.parse(share.text)
        #expect(parsed.game == share.game)
        #expect(parsed.puzzle == share.puzzle)
        #expect(parsed.score == share.score)
        #expect(parsed.completed == share.completed)
        let game = try #require(Fixtures.catalog.game(share.game))
        #expect(game.admits(parsed))
        #expect(parsed.maxScore == game.bounds.maxScore)
    }

    @Test(arguments: ShareCorpus.all)
    func parsesTheSameAsTheChosenGame(_ share: ShareCase) throws {
        #expect(try Fixtures.catalog.parse(share.text, as: share.game) == Fixtures.catalog.parse(share.text))
    }

    @Test(arguments: ShareCorpus.all)
    func chatCRLFAndBlankLinesAroundAShareChangeNothing(_ share: ShareCase) throws {
        let pasted = "haha today was rough 😅\r\n\r\n" + share.text.replacingOccurrences(of: "\n", with: "\r\n\r\n")
            + "\r\n\r\n\r\nanyone else?"
        #expect(try Fixtures.catalog.parse(pasted) == Fixtures.catalog.parse(share.text))
    }

    @Test func everyGameHasSeveralRealShares() {
        let counts = Dictionary(grouping: ShareCorpus.all, by: \.game).mapValues(\.count)
        for game in Game.all {
            #expect((counts[game.id] ?? 0) >= 2, "\(game.id) has \(counts[game.id] ?? 0) shares")
        }
    }
}
