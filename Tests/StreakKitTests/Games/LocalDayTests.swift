import Foundation
@testable import StreakKit
import Testing

@Suite struct LocalDayTests {
    @Test func ordinalsRoundTripThroughTheCalendar() {
        #expect(LocalDay(year: 1970, month: 1, day: 1)?.ordinal == 0)
        #expect(LocalDay(year: 2000, month: 3, day: 1)?.ordinal == 11_017)
        for ordinal in stride(from: -700_000, through: 2_000_000, by: 997) {
            let day = LocalDay(ordinal: ordinal)
            #expect(LocalDay(year: day.year, month: day.month, day: day.day) == day)
        }
        #expect(LocalDay(year: 2025, month: 2, day: 29) == nil)
        #expect(LocalDay(year: 2024, month: 2, day: 29) != nil)
    }

    @Test func localDayAndMinuteFollowTheZone() {
        // 2024-02-14T21:30:00Z: 15 Feb 00:30 in Istanbul, 14 Feb 16:30 in New York.
        let date = Date(timeIntervalSince1970: 1_707_946_200)
        let istanbul = LocalTime(date, in: TimeZone(identifier: "Europe/Istanbul")!)
        #expect(istanbul.day.description == "2024-02-15" && istanbul.minuteOfDay == 30 && istanbul.utcOffsetSeconds == 10_800)
        let newYork = LocalTime(date, in: Fixtures.newYork)
        #expect(newYork.day.description == "2024-02-14" && newYork.minuteOfDay == 16 * 60 + 30)
        #expect(LocalTime(Date(timeIntervalSince1970: -1), utcOffsetSeconds: 0).day.description == "1969-12-31")
    }

    @Test func weeksStartOnMonday() {
        let monday = Fixtures.monday
        #expect(monday.isoWeekday == 1 && monday.adding(days: 6).isoWeekday == 7)
        #expect(monday.weekOrdinal == monday.adding(days: 6).weekOrdinal)
        #expect(monday.weekOrdinal == monday.adding(days: -1).weekOrdinal + 1)
    }

    @Test func codableAsADateString() throws {
        let data = try JSONEncoder().encode([Fixtures.monday])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2026-03-02\"]")
        #expect(try JSONDecoder().decode([LocalDay].self, from: data) == [Fixtures.monday])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocalDay].self, from: Data("[\"2026-02-30\"]".utf8)) }
    }

    @Test func aResultRoundTripsThroughJSON() throws {
        let result = try Fixtures.catalog.record(Game.connections.exampleShare, at: Fixtures.instant(Fixtures.monday, hour: 7), in: Fixtures.london)
        let decoded = try JSONDecoder().decode(GameResult.self, from: JSONEncoder().encode(result))
        #expect(decoded == result)
        #expect(decoded.timeZoneIdentifier == "Europe/London")
    }
}
