import Foundation
import Testing
@testable import StreakKit

/// `AnalyticsIndex`, the fast path, against the straightforward `Analytics` functions (the reference)
/// on random histories recorded across DST changes and time-zone changes, sorted and unsorted: any
/// drift between the two fails here.
@Suite struct AnalyticsIndexTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
    static let sydney = TimeZone(identifier: "Australia/Sydney")!
    static let zones = [Fixtures.utc, Fixtures.newYork, losAngeles, sydney, Fixtures.london]
    static let games: [GameID] = [.wordle, .nerdle, .pinpoint, .strands, .pips, .connections, .queens, "not-a-game"]
    /// 2026-01-15, before New York's DST starts (03-08); the history runs past its end (11-01).
    static let start = Fixtures.instant(LocalDay(year: 2026, month: 1, day: 15)!, hour: 0)
    static let spanSeconds = 420.0 * 86_400

    /// The zone the player is in at `date`: New York, then Los Angeles, then Sydney (flying west across
    /// the date line), then London.
    static func zone(at date: Date) -> TimeZone {
        let elapsed = date.timeIntervalSince(start)
        switch elapsed {
        case ..<(150.0 * 86_400): return Fixtures.newYork
        case ..<(200.0 * 86_400): return losAngeles
        case ..<(320.0 * 86_400): return sydney
        default: return Fixtures.london
        }
    }

    /// `count` random results (some recorded twice), with the games' details and some odd ones: a
    /// score outside the guesses, a Pinpoint result without its details, Strands without hints.
    static func history(seed: UInt64, count: Int) -> [GameResult] {
        var random = SeededGenerator(seed: seed)
        var results: [GameResult] = []
        for _ in 0..<count {
            let game = games.randomElement(using: &random)!
            let completed = Int.random(in: 0..<5, using: &random) > 0
            var score = Int.random(in: 1...7, using: &random)
            var details = GameDetails.guessGrid(GuessGrid(hardMode: false, rows: []))
            let odd = Int.random(in: 0..<20, using: &random) == 0
            switch game {
            case .pinpoint where !odd:
                details = .pinpoint(PinpointDetails(guesses: Int.random(in: 1...6, using: &random), matchPercentages: [], format: .emoji))
            case .strands where !odd:
                score = Int.random(in: 0...4, using: &random)
                details = .strands(StrandsDetails(theme: "t", hints: score, themeWords: 6, spangramPosition: 1))
            case .pips where !odd:
                score = Int.random(in: 20...600, using: &random)
                details = .pips(PipsDetails(difficulty: PipsDifficulty.allCases.randomElement(using: &random)!, seconds: score))
            default:
                if odd { score = 40 }
            }
            let share = ParsedShare(
                game: game, puzzle: Int.random(in: 1...400, using: &random), variant: nil, score: score, maxScore: 6,
                completed: completed, details: details)
            let date = start.addingTimeInterval(Double.random(in: 0..<spanSeconds, using: &random).rounded())
            let result = GameResult(share: share, recordedAt: date, timeZone: zone(at: date))
            results.append(result)
            if Int.random(in: 0..<10, using: &random) == 0 { results.append(result) }
        }
        return results
    }

    static func expectSameAnswers(_ results: [GameResult], seed: UInt64) {
        let index = AnalyticsIndex(results)
        var random = SeededGenerator(seed: seed)
        for _ in 0..<40 {
            let now = start.addingTimeInterval(Double.random(in: (-20.0 * 86_400)...(spanSeconds + 20 * 86_400), using: &random))
            let zone = zones.randomElement(using: &random)!
            for range in AnalyticsRange.allCases {
                for game in [nil] + games {
                    let fast = index.summary(range: range, game: game, now: now, timeZone: zone)
                    let reference = Analytics.summary(of: results, range: range, game: game, now: now, timeZone: zone)
                    #expect(fast == reference, "range \(range), game \(game?.rawValue ?? "all"), now \(now), \(zone.identifier)")
                }
            }
        }
        var day = LocalDay(start, in: Fixtures.utc).adding(days: -14)
        while day.ordinal < LocalDay(start.addingTimeInterval(spanSeconds), in: Fixtures.utc).ordinal + 14 {
            let week = ISOWeek(containing: day)
            #expect(index.recap(week: week) == Analytics.recap(of: results, week: week), "week \(week)")
            day = day.adding(days: 7)
        }
        for game in games {
            #expect(index.guessDistribution(game: game, catalog: Fixtures.catalog)
                == Analytics.guessDistribution(of: results, game: game, catalog: Fixtures.catalog), "game \(game)")
        }
        #expect(index.strandsHints() == Analytics.strandsHints(of: results))
        #expect(index.pipsTimes() == Analytics.pipsTimes(of: results))
    }

    @Test func theHistoryCrossesDSTAndZoneChanges() {
        let results = Self.history(seed: 1, count: 3_000)
        let newYorkOffsets = Set(results.filter { $0.timeZoneIdentifier == "America/New_York" }.map(\.utcOffsetSeconds))
        #expect(newYorkOffsets == [-5 * 3_600, -4 * 3_600])
        #expect(Set(results.map(\.timeZoneIdentifier)) == ["America/New_York", "America/Los_Angeles", "Australia/Sydney", "Europe/London"])
        #expect(results.contains { !$0.completed } && results.contains { $0.score == 40 })
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func unsortedRandomHistoriesGiveTheReferenceAnswers(seed: UInt64) {
        Self.expectSameAnswers(Self.history(seed: seed, count: 3_000), seed: seed &+ 100)
    }

    @Test(arguments: [4, 5] as [UInt64])
    func deduplicatedHistoriesInDayOrderGiveTheReferenceAnswers(seed: UInt64) {
        let results = GameResult.deduplicated(Self.history(seed: seed, count: 3_000))
        Self.expectSameAnswers(results, seed: seed &+ 100)
    }

    @Test func smallAndEmptyHistoriesGiveTheReferenceAnswers() {
        Self.expectSameAnswers([], seed: 7)
        Self.expectSameAnswers(Self.history(seed: 8, count: 12), seed: 9)
    }

    /// The figures `RangeSummaryTests` computes by hand, through the index.
    @Test func handComputedSevenDays() {
        let day = { (month: Int, day: Int) in LocalDay(year: 2026, month: month, day: day)! }
        let results = [
            Fixtures.result(day: day(3, 10), score: 3), Fixtures.result(.connections, day: day(3, 10), score: 1),
            Fixtures.result(day: day(3, 9), score: 4), Fixtures.result(day: day(3, 8), completed: false),
            Fixtures.result(day: day(3, 7), score: 2), Fixtures.result(day: day(2, 20), score: 5),
        ]
        let s = AnalyticsIndex(results).summary(range: .week, today: day(3, 10))
        #expect(s.firstDay == day(3, 4) && s.played == 5 && s.completed == 4 && s.completionRate == 0.8 && s.daysPlayed == 4)
        #expect(s.averageScore == 2.5 && s.currentStreak == 2 && s.longestStreak == 2)
        #expect(s.games == [
            GameRangeStats(game: .wordle, played: 4, completed: 3, averageScore: 3),
            GameRangeStats(game: .connections, played: 1, completed: 1, averageScore: 1),
        ])
    }
}
