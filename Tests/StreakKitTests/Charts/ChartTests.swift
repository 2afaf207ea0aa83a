import Foundation
import Testing
@testable import StreakKit

/// The SVG charts: well-formed (XMLParser), titled, self-contained, one bar per value.
@Suite struct ChartTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDay { LocalDay(year: year, month: month, day: day)! }

    func expectStandalone(_ svg: String, title: String) -> SVGInspector {
        let inspector = SVGInspector(svg)
        #expect(inspector.wellFormed)
        #expect(inspector.elements.first?.name == "svg")
        #expect(inspector.elements.first?.attributes["version"] == "1.1")
        #expect(inspector.rootTitle == title)
        #expect(!svg.contains("href") && !svg.contains("<script") && !svg.contains("url("))
        return inspector
    }

    @Test func guessDistributionHasOneBarPerGuessCountAndOneForFailures() {
        let distribution = GuessDistribution(game: .wordle, maxGuesses: 6, counts: [0, 1, 2, 1, 0, 1], failed: 1)
        let svg = GuessDistributionChart.svg(distribution, title: "Wordle <guesses> & \"fails\"")
        let bars = expectStandalone(svg, title: "Wordle <guesses> & \"fails\"").rects(class: "bar")
        #expect(bars.count == 7)
        #expect(bars.compactMap { $0["data-guesses"] } == ["1", "2", "3", "4", "5", "6", "X"])
        #expect(bars.compactMap { $0["data-count"] } == ["0", "1", "2", "1", "0", "1", "1"])
        #expect(bars.compactMap { $0["width"] } == ["0", "180", "360", "180", "0", "180", "180"])
        let pinpoint = GuessDistribution(game: .pinpoint, maxGuesses: 5, counts: [0, 0, 0, 0, 0], failed: 0)
        #expect(expectStandalone(GuessDistributionChart.svg(pinpoint, title: "Pinpoint"), title: "Pinpoint").rects(class: "bar").count == 6)
    }

    @Test func theStreakCalendarHasASquarePerDayInTheRange() {
        let results = [
            Fixtures.result(day: Self.day(2026, 3, 2)), Fixtures.result(.connections, day: Self.day(2026, 3, 2)),
            Fixtures.result(day: Self.day(2026, 3, 4), completed: false),
            Fixtures.result(day: Self.day(2026, 1, 1)),
        ]
        let svg = StreakCalendarChart.svg(results, from: Self.day(2026, 2, 9), to: Self.day(2026, 3, 10), title: "Last 30 days")
        let days = expectStandalone(svg, title: "Last 30 days").rects(class: "day")
        #expect(days.count == 30)
        #expect(days.first?["data-day"] == "2026-02-09" && days.last?["data-day"] == "2026-03-10")
        let marked = days.filter { $0["data-count"] != "0" }
        #expect(marked.map { $0["data-day"] ?? "" } == ["2026-03-02", "2026-03-04"])
        #expect(marked.map { $0["data-completed"] ?? "" } == ["2", "0"])
        #expect(marked.map { $0["fill"] ?? "" } == ["#7bc96f", "#f4b6a6"])
        // 2026-03-02 is a Monday in the fourth column (week of 02-09 is the first), top row.
        #expect(marked.first?["x"] == String(40 + 3 * 17) && marked.first?["y"] == "48")
        let year = StreakCalendarChart.svg(results, from: Self.day(2025, 3, 11), to: Self.day(2026, 3, 10), title: "Year")
        #expect(expectStandalone(year, title: "Year").rects(class: "day").count == 365)
        #expect(expectStandalone(StreakCalendarChart.svg(results, from: Self.day(2026, 3, 10), to: Self.day(2026, 3, 9), title: "None"), title: "None").rects(class: "day").isEmpty)
    }

    @Test func theWeeklyRecapHasSevenBarsMondayFirst() throws {
        let week = try #require(ISOWeek("2020-W53"))
        let results = [
            Fixtures.result(day: Self.day(2020, 12, 28)), Fixtures.result(day: Self.day(2020, 12, 29)),
            Fixtures.result(.connections, day: Self.day(2020, 12, 29)), Fixtures.result(day: Self.day(2021, 1, 3)),
        ]
        let svg = WeeklyRecapChart.svg(Analytics.recap(of: results, week: week), title: "Week 2020-W53")
        let bars = expectStandalone(svg, title: "Week 2020-W53").rects(class: "bar")
        #expect(bars.count == 7)
        #expect(bars.compactMap { $0["data-day"] } == week.days.map(\.description))
        #expect(bars.compactMap { $0["data-count"] } == ["1", "2", "0", "0", "0", "0", "1"])
        #expect(bars.compactMap { $0["height"] } == ["100", "200", "0", "0", "0", "0", "100"])
    }

    @Test func controlCharactersInATitleAreDroppedSoTheDocumentStaysWellFormed() {
        let svg = GuessDistributionChart.svg(GuessDistribution(game: .wordle, maxGuesses: 6, counts: [1, 0, 0, 0, 0, 0], failed: 0), title: "a\u{1}b'c")
        _ = expectStandalone(svg, title: "ab'c")
    }
}
