import Testing
@testable import StreakKit

/// `Analytics.recap`: one ISO week's figures.
@Suite struct WeeklyRecapTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDay { LocalDay(year: year, month: month, day: day)! }

    @Test func theWeekAcrossNewYear() throws {
        let results = [
            Fixtures.result(day: Self.day(2020, 12, 27)),
            Fixtures.result(day: Self.day(2020, 12, 28)),
            Fixtures.result(day: Self.day(2020, 12, 29)),
            Fixtures.result(.connections, day: Self.day(2020, 12, 29), completed: false),
            Fixtures.result(day: Self.day(2020, 12, 31)),
            Fixtures.result(.connections, day: Self.day(2021, 1, 1)),
            Fixtures.result(.connections, day: Self.day(2021, 1, 2)),
            Fixtures.result(.connections, day: Self.day(2021, 1, 3)),
            Fixtures.result(day: Self.day(2021, 1, 4)),
        ]
        let recap = Analytics.recap(of: results, week: try #require(ISOWeek("2020-W53")))
        #expect(recap.played == 7 && recap.completed == 6)
        #expect(recap.completionRate == 6.0 / 7.0)
        #expect(recap.daysPlayed == 6 && recap.consistency == 6.0 / 7.0)
        #expect(recap.longestStreak == 4)
        #expect(recap.mostPlayed == .connections)
        #expect(recap.playedPerDay == [1, 2, 0, 1, 1, 1, 1])
    }

    @Test func aTieGoesToTheSmallerIdAndAnEmptyWeekIsZero() throws {
        let week = try #require(ISOWeek("2026-W10"))
        let tie = Analytics.recap(of: [Fixtures.result(day: Fixtures.monday), Fixtures.result(.connections, day: Fixtures.monday.adding(days: 2))], week: week)
        #expect(tie.mostPlayed == .connections && tie.longestStreak == 1 && tie.consistency == 2.0 / 7.0)
        let empty = Analytics.recap(of: [], week: week)
        #expect(empty.played == 0 && empty.completionRate == 0 && empty.mostPlayed == nil && empty.playedPerDay == Array(repeating: 0, count: 7))
    }
}
