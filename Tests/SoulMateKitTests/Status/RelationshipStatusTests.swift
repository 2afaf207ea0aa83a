import Foundation
@testable import SoulMateKit
import Testing

@Suite struct RelationshipStatusTests {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let istanbul = TimeZone(identifier: "Europe/Istanbul")!
    static let utc = TimeZone(identifier: "UTC")!

    /// An instant from an ISO 8601 string with offset.
    static func at(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    static func day(_ since: String, _ now: String, _ zone: TimeZone) throws -> Int {
        try RelationshipStatus(togetherSince: at(since)).dayCount(at: at(now), in: zone)
    }

    @Test func dayOneIsTheFirstDay() throws {
        #expect(try Self.day("2024-06-01T00:00:00+03:00", "2024-06-01T23:59:59+03:00", Self.istanbul) == 1)
        #expect(try Self.day("2024-06-01T23:59:00+03:00", "2024-06-02T00:00:00+03:00", Self.istanbul) == 2)
        #expect(try Self.day("2016-09-06T12:00:00+03:00", "2026-02-14T12:00:00+03:00", Self.istanbul) == 3_449)
    }

    @Test func aShortDayOfSpringForwardIsOneDay() throws {
        // New York, 10 March 2024: 02:00 EST → 03:00 EDT, a 23-hour day.
        #expect(try Self.day("2024-03-09T23:30:00-05:00", "2024-03-10T23:30:00-04:00", Self.newYork) == 2)
        // 25 hours later it is already the third day, though fewer than 2 × 24 hours passed.
        #expect(try Self.day("2024-03-09T23:30:00-05:00", "2024-03-11T00:30:00-04:00", Self.newYork) == 3)
        // Istanbul, 27 March 2016: 03:00 EET → 04:00 EEST.
        #expect(try Self.day("2016-03-27T00:30:00+02:00", "2016-03-27T23:30:00+03:00", Self.istanbul) == 1)
    }

    @Test func aLongDayOfFallBackIsOneDay() throws {
        // New York, 3 November 2024: 02:00 EDT → 01:00 EST, a 25-hour day; 49 hours span two days.
        #expect(try Self.day("2024-11-02T00:00:00-04:00", "2024-11-03T23:59:00-05:00", Self.newYork) == 2)
        // Istanbul, 8 November 2015 (moved for the election): 04:00 EEST → 03:00 EET.
        #expect(try Self.day("2015-11-07T00:00:00+03:00", "2015-11-08T23:30:00+02:00", Self.istanbul) == 2)
    }

    @Test func theUsersTimeZoneDecidesTheDay() throws {
        // 22:30 and 01:00 UTC are two days in London's winter but one day in Istanbul (+3).
        #expect(try Self.day("2024-01-01T22:30:00Z", "2024-01-02T01:00:00Z", Self.utc) == 2)
        #expect(try Self.day("2024-01-01T22:30:00Z", "2024-01-02T01:00:00Z", Self.istanbul) == 1)
    }

    @Test func aStartOnALaterDayIsRefused() throws {
        #expect(throws: SoulMateKitError.self) { try Self.day("2024-06-02T00:00:00Z", "2024-06-01T12:00:00Z", Self.utc) }
        // A start later the same day (another clock a few seconds ahead) is still day 1.
        #expect(try Self.day("2024-06-01T12:00:05Z", "2024-06-01T12:00:00Z", Self.utc) == 1)
    }
}
