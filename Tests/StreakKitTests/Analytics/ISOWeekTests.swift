import Testing
@testable import StreakKit

/// ISO 8601 weeks: week-year rules, 53-week years, parsing.
@Suite struct ISOWeekTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDay { LocalDay(year: year, month: month, day: day)! }

    @Test func daysNearNewYearBelongToTheYearOfTheirThursday() {
        #expect(ISOWeek(containing: Self.day(2021, 1, 3)).description == "2020-W53")
        #expect(ISOWeek(containing: Self.day(2020, 12, 28)).description == "2020-W53")
        #expect(ISOWeek(containing: Self.day(2021, 1, 4)).description == "2021-W01")
        #expect(ISOWeek(containing: Self.day(2024, 12, 30)).description == "2025-W01")
        #expect(ISOWeek(containing: Self.day(2026, 1, 1)).description == "2026-W01")
        #expect(ISOWeek(containing: Self.day(2025, 12, 29)).description == "2026-W01")
        #expect(ISOWeek(containing: Self.day(2026, 3, 2)).description == "2026-W10")
        #expect(ISOWeek(containing: Self.day(2016, 1, 1)).description == "2015-W53")
    }

    @Test func yearsWithFiftyThreeWeeks() {
        #expect(ISOWeek.weeks(inYear: 2020) == 53)
        #expect(ISOWeek.weeks(inYear: 2015) == 53)
        #expect(ISOWeek.weeks(inYear: 2026) == 53)
        #expect(ISOWeek.weeks(inYear: 2021) == 52)
        #expect(ISOWeek.weeks(inYear: 2025) == 52)
        #expect(ISOWeek(year: 2020, week: 53) != nil)
        #expect(ISOWeek(year: 2021, week: 53) == nil)
        #expect(ISOWeek(year: 2021, week: 0) == nil)
    }

    @Test func mondayAndDays() throws {
        let week = try #require(ISOWeek("2020-W53"))
        #expect(week.monday == Self.day(2020, 12, 28))
        #expect(week.days.last == Self.day(2021, 1, 3))
        #expect(try #require(ISOWeek("2025-W01")).monday == Self.day(2024, 12, 30))
        #expect(try #require(ISOWeek("2026-W10")).monday == Self.day(2026, 3, 2))
        // Every day of a span maps back to the week whose days contain it.
        for ordinal in Self.day(2019, 12, 1).ordinal...Self.day(2027, 1, 31).ordinal {
            let day = LocalDay(ordinal: ordinal)
            #expect(ISOWeek(containing: day).days.contains(day))
        }
    }

    @Test func parsingAcceptsOnlyYYYYWww() {
        #expect(ISOWeek("2020-W53") == ISOWeek(year: 2020, week: 53))
        #expect(ISOWeek(year: 2025, week: 1)?.description == "2025-W01")
        for bad in ["2021-W53", "2020-W54", "2020-W00", "2020W53", "2020-w53", "20-W5301", "2020-W5", "２０２０-W53", "", "2020-W+5"] {
            #expect(ISOWeek(bad) == nil, "\(bad)")
        }
    }
}
