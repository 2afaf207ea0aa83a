import Foundation
import Testing

@testable import EraserKit

@Suite struct ScanDateRangeTests {
    @Test func aRangeCoversWholeDaysInItsZoneHalfOpen() throws {
        let istanbul = try #require(TimeZone(identifier: "Europe/Istanbul"))  // UTC+3, no DST since 2016
        let range = ScanDateRange(from: ScanDay(year: 2023, month: 3, day: 1), through: ScanDay(year: 2023, month: 3, day: 31))
        let instants = try range.instants(in: istanbul)
        #expect(instants.start == ScanFixtures.date(2023, 2, 28, 21))
        #expect(instants.end == ScanFixtures.date(2023, 3, 31, 21))
        #expect(instants.contains(instants.start))
        #expect(!instants.contains(instants.start.addingTimeInterval(-0.001)))
        #expect(instants.contains(instants.end.addingTimeInterval(-0.001)))
        #expect(!instants.contains(instants.end))
    }

    @Test func aDaylightSavingDayIsTwentyThreeHoursLong() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let day = ScanDay(year: 2024, month: 3, day: 10)
        let instants = try ScanDateRange(from: day, through: day).instants(in: newYork)
        #expect(instants.start == ScanFixtures.date(2024, 3, 10, 5))
        #expect(instants.end.timeIntervalSince(instants.start) == 23 * 3600)
    }

    @Test func eventsOverlapHalfOpen() {
        let range = ScanInstantRange(start: ScanFixtures.date(2023, 3, 1, 0), end: ScanFixtures.date(2023, 4, 1, 0))
        // Ends exactly when the range starts: outside. Starts exactly when it ends: outside.
        #expect(!range.overlaps(eventStart: ScanFixtures.date(2023, 2, 28, 23), eventEnd: range.start))
        #expect(!range.overlaps(eventStart: range.end, eventEnd: ScanFixtures.date(2023, 4, 1, 1)))
        // Straddling either edge: inside.
        #expect(range.overlaps(eventStart: ScanFixtures.date(2023, 2, 28, 23), eventEnd: ScanFixtures.date(2023, 3, 1, 0, 30)))
        #expect(range.overlaps(eventStart: ScanFixtures.date(2023, 3, 31, 23), eventEnd: ScanFixtures.date(2023, 4, 1, 1)))
        // An instantaneous event counts by its start.
        #expect(range.overlaps(eventStart: range.start, eventEnd: range.start))
        #expect(!range.overlaps(eventStart: range.end, eventEnd: range.end))
    }

    @Test func daysPrintAndCompare() {
        #expect(ScanDay(year: 987, month: 1, day: 2).description == "0987-01-02")
        #expect(ScanDay(year: 2023, month: 12, day: 31) < ScanDay(year: 2024, month: 1, day: 1))
    }
}
