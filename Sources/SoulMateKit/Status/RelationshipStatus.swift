import Foundation

/// How long two partners have been together, counted in days of the user's time zone.
public struct RelationshipStatus: Equatable, Sendable {
    /// The instant the relationship started (the pair's start, or a date the couple chose).
    public let togetherSince: Date

    /// A status from its start.
    public init(togetherSince: Date) {
        self.togetherSince = togetherSince
    }

    /// The day of the relationship `now` falls on: 1 on the day it started, 2 the next day, …
    ///
    /// Days are calendar days in `timeZone`: the count moves at local midnight, whatever the
    /// hours in between (a 23- or 25-hour day across a daylight-saving change is one day).
    /// Both instants are turned into their local year-month-day, and the days between those
    /// dates are counted on a proleptic Gregorian calendar in UTC, where every day has 24 hours.
    /// - Parameters:
    ///   - now: the instant to count to.
    ///   - timeZone: the user's time zone.
    /// - Returns: 1 or more.
    /// - Throws: `SoulMateKitError.invalidInput` when `togetherSince` is on a later local day than `now`.
    public func dayCount(at now: Date = Date(), in timeZone: TimeZone = .current) throws(SoulMateKitError) -> Int {
        let days = Self.localDayNumber(of: now, in: timeZone) - Self.localDayNumber(of: togetherSince, in: timeZone)
        guard days >= 0 else { throw .invalidInput("the relationship starts on a later day than today") }
        return days + 1
    }

    /// The number of the local calendar day of `date` in `timeZone`: days since 1970-01-01.
    static func localDayNumber(of date: Date, in timeZone: TimeZone) -> Int {
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        let parts = local.dateComponents([.era, .year, .month, .day], from: date)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? timeZone
        var noon = parts
        noon.hour = 12
        guard let sameDayInUTC = utc.date(from: noon) else { return 0 }
        return Int((sameDayInUTC.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
