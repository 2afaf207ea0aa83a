/// The spans analytics are shown for, counted in the player's local calendar days up to today.
public enum AnalyticsRange: Int, Hashable, Sendable, Codable, CaseIterable {
    /// Today only.
    case today = 1
    /// The last 7 days, today included.
    case week = 7
    /// The last 30 days, today included.
    case month = 30
    /// The last 365 days, today included.
    case year = 365

    /// The number of days in the range.
    public var dayCount: Int { rawValue }

    /// The first and last day of the range ending on `today`.
    public func days(endingOn today: LocalDay) -> ClosedRange<LocalDay> {
        today.adding(days: 1 - dayCount)...today
    }
}

/// Runs of consecutive days, shared by the range summaries and the weekly recaps.
enum DayRuns {
    /// The longest run of consecutive days in `days` (any order, duplicates allowed).
    static func longest(_ days: Set<LocalDay>) -> Int {
        var best = 0
        for day in days where !days.contains(day.adding(days: -1)) {
            var length = 1
            while days.contains(day.adding(days: length)) { length += 1 }
            best = max(best, length)
        }
        return best
    }

    /// The run ending on `today`, or on the day before when today is not in `days` yet (a streak is
    /// still alive until the day ends); 0 when neither day is in `days`.
    static func current(_ days: Set<LocalDay>, today: LocalDay) -> Int {
        var day = days.contains(today) ? today : today.adding(days: -1)
        var length = 0
        while days.contains(day) {
            length += 1
            day = day.adding(days: -1)
        }
        return length
    }
}
