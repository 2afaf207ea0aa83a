@testable import AdminConsole
@testable import KindredServerCore
import Foundation
import Testing

/// Numbers with thousands separators, the sparkline's points and durations in words.
@Suite struct AdminFormatTests {
    @Test func numbersHaveThousandsSeparators() {
        #expect(AdminFormat.number(0) == "0")
        #expect(AdminFormat.number(999) == "999")
        #expect(AdminFormat.number(1000) == "1,000")
        #expect(AdminFormat.number(1_234_567) == "1,234,567")
        #expect(AdminFormat.number(-45_000) == "-45,000")
    }

    @Test func theSparklineSpansTheBoxWithTheHighestValueAtTheTop() {
        #expect(AdminFormat.sparkline([]) == "")
        #expect(AdminFormat.sparkline([0, 5, 10]) == "0,26 60,14 120,2")
        #expect(AdminFormat.sparkline([0, 0]) == "0,26 120,26")
        #expect(AdminFormat.seriesLabel([1, 9, 3]) == "last 3 days: lowest 1, highest 9, today 3")
    }

    @Test func durationsReadInWords() {
        #expect(AdminFormat.age(milliseconds: 45_000) == "45 s")
        #expect(AdminFormat.age(milliseconds: 12 * 60_000) == "12 min")
        #expect(AdminFormat.age(milliseconds: (3 * 3600 + 5 * 60) * 1000) == "3 h 5 min")
        #expect(AdminFormat.age(milliseconds: (2 * 86_400 + 4 * 3600) * 1000) == "2 d 4 h")
        #expect(AdminFormat.age(milliseconds: -5) == "0 s")
    }

    @Test func dayStartsEndWithTodayInUTC() {
        let now = Date(timeIntervalSince1970: 1_764_158_400 + 3600)  // 2025-11-26T13:00:00Z
        let days = AdminOverviews.dayStarts(endingAt: now)
        #expect(days.count == 30)
        #expect(days[29] == 1_764_115_200_000)
        #expect(days[0] == 1_761_609_600_000)
    }
}
