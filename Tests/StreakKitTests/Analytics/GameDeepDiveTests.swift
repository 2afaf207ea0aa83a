import Foundation
import Testing
@testable import StreakKit

/// Guess distributions, Strands hints and Pips times.
@Suite struct GameDeepDiveTests {
    let day = Fixtures.monday

    @Test func wordleCountsGuessesAndFailures() throws {
        let results = [3, 4, 3, 2, 6].map { Fixtures.result(day: day, score: $0) }
            + [Fixtures.result(day: day, completed: false), Fixtures.result(.nerdle, day: day, score: 1)]
        let d = try #require(Analytics.guessDistribution(of: results, game: .wordle))
        #expect(d.maxGuesses == 6)
        #expect(d.counts == [0, 1, 2, 1, 0, 1])
        #expect(d.failed == 1 && d.total == 6)
    }

    @Test func nerdleHasItsOwnDistribution() throws {
        let results = [Fixtures.result(.nerdle, day: day, score: 1), Fixtures.result(.nerdle, day: day, score: 5), Fixtures.result(day: day, score: 2)]
        let d = try #require(Analytics.guessDistribution(of: results, game: .nerdle))
        #expect(d.counts == [1, 0, 0, 0, 1, 0] && d.failed == 0)
    }

    @Test func pinpointUsesItsGuessesOutOfFive() throws {
        func pinpoint(_ guesses: Int, completed: Bool = true) -> GameResult {
            Fixtures.result(
                .pinpoint, day: day, completed: completed, score: completed ? guesses : 6,
                details: .pinpoint(PinpointDetails(guesses: guesses, matchPercentages: [], format: .emoji)))
        }
        let d = try #require(Analytics.guessDistribution(of: [pinpoint(2), pinpoint(2), pinpoint(4), pinpoint(5, completed: false)], game: .pinpoint))
        #expect(d.maxGuesses == 5 && d.counts == [0, 2, 0, 1, 0] && d.failed == 1)
    }

    @Test func gamesWithoutGuessesHaveNoDistribution() {
        #expect(Analytics.guessDistribution(of: [], game: .connections) == nil)
        #expect(Analytics.guessDistribution(of: [], game: .wordle)?.counts == [0, 0, 0, 0, 0, 0])
    }

    @Test func strandsHints() {
        let results = [0, 2, 0, 1].map { hints in
            Fixtures.result(.strands, day: day, score: hints, details: .strands(StrandsDetails(theme: "t", hints: hints, themeWords: 6, spangramPosition: 1)))
        } + [Fixtures.result(day: day)]
        let h = Analytics.strandsHints(of: results)
        #expect(h.games == 4 && h.totalHints == 3 && h.averageHints == 0.75 && h.hintFree == 2)
        #expect(h.gamesByHints == [0: 2, 1: 1, 2: 1])
        #expect(Analytics.strandsHints(of: []).averageHints == nil)
    }

    @Test func pipsMedianAndBestPerDifficulty() {
        func pips(_ difficulty: PipsDifficulty, _ seconds: Int, completed: Bool = true) -> GameResult {
            Fixtures.result(.pips, day: day, completed: completed, score: seconds, details: .pips(PipsDetails(difficulty: difficulty, seconds: seconds)), variant: difficulty.rawValue)
        }
        let times = Analytics.pipsTimes(of: [pips(.easy, 60), pips(.easy, 90), pips(.easy, 30), pips(.medium, 200), pips(.medium, 100), pips(.hard, 10, completed: false)])
        #expect(times == [
            PipsTimes(difficulty: .easy, solved: 3, medianSeconds: 60, bestSeconds: 30),
            PipsTimes(difficulty: .medium, solved: 2, medianSeconds: 150, bestSeconds: 100),
            PipsTimes(difficulty: .hard, solved: 0, medianSeconds: nil, bestSeconds: nil),
        ])
    }
}
