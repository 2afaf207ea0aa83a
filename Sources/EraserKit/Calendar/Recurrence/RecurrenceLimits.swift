/// The guard against runaway rules: past either limit, expansion stops with
/// `CalendarError.tooManyOccurrences` instead of running on.
public struct RecurrenceLimits: Sendable, Equatable {
    /// Occurrences one series may have in one range (137 years of a daily event by default).
    public var maxOccurrences: Int
    /// Periods (days, weeks, months or years of the rule) one rule may walk in one range; a rule
    /// that never matches (`BYMONTH=2;BYMONTHDAY=30`) stops at the range's end or here.
    public var maxPeriods: Int

    public init(maxOccurrences: Int = 50_000, maxPeriods: Int = 1_000_000) {
        self.maxOccurrences = maxOccurrences
        self.maxPeriods = maxPeriods
    }
}
