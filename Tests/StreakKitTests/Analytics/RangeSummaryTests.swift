import Foundation
import Testing
@testable import StreakKit

/// `Analytics.summary`: today / 7 / 30 / 365 days against hand-computed figures.
@Suite struct RangeSummaryTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDay { LocalDay(year: year, month: month, day: day)! }
    /// 2026-03-10, a Tuesday, at noon UTC.
    let now = Fixtures.instant(day(2026, 3, 10), hour: 12)

    /// Wordle on 03-10 (3), 03-09 (4), 03-08 (failed), 03-07 (2), 02-20 (5), 2025-06-01 (6), 2025-01-01 (3);
    /// Connections on 03-10 (1).
    let results: [GameResult] = [
        Fixtures.result(day: day(2026, 3, 10), score: 3),
        Fixtures.result(.connections, day: day(2026, 3, 10), score: 1),
        Fixtures.result(day: day(2026, 3, 9), score: 4),
        Fixtures.result(day: day(2026, 3, 8), completed: false),
        Fixtures.result(day: day(2026, 3, 7), score: 2),
        Fixtures.result(day: day(2026, 2, 20), score: 5),
        Fixtures.result(day: day(2025, 6, 1), score: 6),
        Fixtures.result(day: day(2025, 1, 1), score: 3),
    ]

    @Test func todayCountsOnlyTodaysResults() {
        let s = Analytics.summary(of: results, range: .today, now: now, timeZone: Fixtures.utc)
        #expect(s.firstDay == Self.day(2026, 3, 10) && s.lastDay == Self.day(2026, 3, 10))
        #expect(s.played == 2 && s.completed == 2 && s.completionRate == 1 && s.daysPlayed == 1)
        #expect(s.averageScore == 2)
        #expect(s.currentStreak == 2 && s.longestStreak == 1)
        #expect(s.games.map(\.game) == [.connections, .wordle])
    }

    @Test func sevenDaysHasPerGameFiguresMostPlayedFirst() {
        let s = Analytics.summary(of: results, range: .week, now: now, timeZone: Fixtures.utc)
        #expect(s.firstDay == Self.day(2026, 3, 4))
        #expect(s.played == 5 && s.completed == 4 && s.completionRate == 0.8 && s.daysPlayed == 4)
        #expect(s.averageScore == 2.5)
        #expect(s.games == [
            GameRangeStats(game: .wordle, played: 4, completed: 3, averageScore: 3),
            GameRangeStats(game: .connections, played: 1, completed: 1, averageScore: 1),
        ])
        #expect(s.currentStreak == 2 && s.longestStreak == 2)
    }

    @Test func thirtyAndThreeHundredSixtyFiveDays() {
        let month = Analytics.summary(of: results, range: .month, now: now, timeZone: Fixtures.utc)
        #expect(month.firstDay == Self.day(2026, 2, 9))
        #expect(month.played == 6 && month.completed == 5 && month.daysPlayed == 5 && month.averageScore == 3)
        let year = Analytics.summary(of: results, range: .year, now: now, timeZone: Fixtures.utc)
        #expect(year.firstDay == Self.day(2025, 3, 11))
        #expect(year.played == 7 && year.completed == 6 && year.averageScore == 3.5)
        #expect(year.completionRate == 6.0 / 7.0)
    }

    @Test func oneGameOnly() {
        let s = Analytics.summary(of: results, range: .week, game: .connections, now: now, timeZone: Fixtures.utc)
        #expect(s.played == 1 && s.completed == 1 && s.averageScore == 1)
        #expect(s.currentStreak == 1 && s.longestStreak == 1)
        #expect(s.games.map(\.game) == [.connections])
    }

    @Test func theCurrentStreakSurvivesUntilTheDayWithoutAResultEnds() {
        let tomorrow = Analytics.summary(of: results, range: .week, now: Fixtures.instant(Self.day(2026, 3, 11), hour: 12), timeZone: Fixtures.utc)
        #expect(tomorrow.currentStreak == 2)
        let later = Analytics.summary(of: results, range: .week, now: Fixtures.instant(Self.day(2026, 3, 12), hour: 12), timeZone: Fixtures.utc)
        #expect(later.currentStreak == 0)
        #expect(later.played == 5 && later.longestStreak == 2)
    }

    @Test func todayIsTheLocalDayOfNowInTheZone() {
        // 02:00 UTC on 03-10 is 21:00 on 03-09 in New York.
        let s = Analytics.summary(of: results, range: .today, now: Fixtures.instant(Self.day(2026, 3, 10), hour: 2), timeZone: Fixtures.newYork)
        #expect(s.lastDay == Self.day(2026, 3, 9))
        #expect(s.played == 1 && s.averageScore == 4 && s.currentStreak == 1)
    }

    @Test func nothingPlayedIsZeroNotADivisionByZero() {
        let s = Analytics.summary(of: [], range: .year, now: now, timeZone: Fixtures.utc)
        #expect(s.played == 0 && s.completionRate == 0 && s.averageScore == nil && s.games.isEmpty)
        #expect(s.currentStreak == 0 && s.longestStreak == 0)
    }
}
