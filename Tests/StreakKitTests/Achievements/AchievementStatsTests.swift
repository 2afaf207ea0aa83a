@testable import StreakKit
import Testing

@Suite struct AchievementStatsTests {
    func day(_ n: Int) -> LocalDay { Fixtures.monday.adding(days: n) }

    @Test func metricsFromResults() throws {
        let catalog = Fixtures.catalog
        var results: [GameResult] = []
        // Wordle on seven days in a row: a two (perfect, and a personal best after a four), then threes.
        for n in 0..<7 {
            results.append(Fixtures.result(.wordle, day: day(n), score: n == 1 ? 2 : (n == 0 ? 4 : 3), puzzle: 1_000 + n))
        }
        // Zip in 12 s, flawless (perfect and fast), on day 0; Tango in 45 s (neither) on day 0.
        results.append(Fixtures.result(.zip, day: day(0), score: 12, details: .zip(ZipDetails(seconds: 12, backtracks: 0, flawless: true))))
        results.append(Fixtures.result(.tango, day: day(0), score: 45, details: .timed(TimedDetails(seconds: 45, flawless: false))))
        // A failed Connections on day 1 counts for nothing but its streak.
        results.append(Fixtures.result(.connections, day: day(1), completed: false, score: 7))
        // The same Wordle recorded twice is one result.
        results.append(results[0])
        let stats = AchievementStats(results: results, catalog: catalog, socialShares: 4)
        #expect(stats[.streakMaster] == 7)
        #expect(stats[.gameCollector] == 3)
        #expect(stats[.perfectionist] == 2)
        #expect(stats[.dailyDevotee] == 7)
        #expect(stats[.varietyPlayer] == 3)
        #expect(stats[.speedDemon] == 1)
        #expect(stats[.marathonRunner] == 9)
        #expect(stats[.personalBest] == 1)
        #expect(stats[.socialPlayer] == 4)
        #expect(stats[.completionist] == 0)
    }

    @Test func completionistCountsGamesWithThirtyCompletedResults() {
        let results = (0..<30).flatMap { n in
            [Fixtures.result(.wordle, day: day(n), puzzle: n), Fixtures.result(.strands, day: day(n), puzzle: n)]
        } + [Fixtures.result(.tango, day: day(0))]
        #expect(AchievementStats(results: results, catalog: Fixtures.catalog)[.completionist] == 2)
    }

    @Test func perfectAndFastFollowTheRules() {
        let rules = AchievementRules()
        #expect(rules.isPerfect(Fixtures.result(.connections, day: day(0), score: 4, details: .connections(ConnectionsDetails(rows: [], solved: [], mistakes: 0)))))
        #expect(!rules.isPerfect(Fixtures.result(.strands, day: day(0), score: 1, details: .strands(StrandsDetails(theme: "", hints: 1, themeWords: 6, spangramPosition: 2)))))
        #expect(rules.isFast(Fixtures.result(.pips, day: day(0), details: .pips(PipsDetails(difficulty: .hard, seconds: 100)))))
        #expect(!rules.isFast(Fixtures.result(.pips, day: day(0), details: .pips(PipsDetails(difficulty: .easy, seconds: 100)))))
        #expect(!rules.isFast(Fixtures.result(.wordle, day: day(0), score: 1)))
    }
}
