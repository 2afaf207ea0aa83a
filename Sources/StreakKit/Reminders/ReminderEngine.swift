/// A time of day, to the minute.
public struct ReminderTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Minutes since midnight, 0–1439.
    public let minuteOfDay: Int

    /// The time `hour`:`minute` (wrapped into one day).
    public init(hour: Int, minute: Int = 0) { self.init(minuteOfDay: hour * 60 + minute) }
    /// The time `minuteOfDay` minutes after midnight (wrapped into one day).
    public init(minuteOfDay: Int) { self.minuteOfDay = ((minuteOfDay % 1440) + 1440) % 1440 }

    /// The hour, 0–23.
    public var hour: Int { minuteOfDay / 60 }
    /// The minute, 0–59.
    public var minute: Int { minuteOfDay % 60 }
    /// `HH:mm`.
    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
    /// Orders by time of day.
    public static func < (lhs: ReminderTime, rhs: ReminderTime) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }
}

/// Suggests when to remind the player, from when they usually play (docs/streaksync-device.md,
/// "Smart reminders"). Pure: everything it needs is passed in; it runs on the device only.
///
/// 1. Histogram: completed results of the last `lookbackDays` local days (today included), by the
///    local hour they were recorded in (in the zone they were recorded in), 24 bins.
/// 2. Window: the `windowHours`-hour window (wrapping past midnight) with the most results. Ties go
///    to the window whose first hour holds more results (so the window starts where play starts),
///    then to the one that starts earliest in the day (00:00 first).
/// 3. Suggestion: `leadMinutes` before the window starts, moved into `earliest`…`latest` by the
///    nearer edge around the clock (00:30 → 22:00, 04:30 → 06:00; halfway → `latest`).
///    No results: `fallback`.
public struct ReminderEngine: Hashable, Sendable {
    /// Days of history the histogram covers.
    public var lookbackDays = 30
    /// The window's width in hours.
    public var windowHours = 2
    /// How long before the window the reminder comes.
    public var leadMinutes = 30
    /// The earliest suggestion.
    public var earliest = ReminderTime(hour: 6)
    /// The latest suggestion.
    public var latest = ReminderTime(hour: 22)
    /// The suggestion with no history.
    public var fallback = ReminderTime(hour: 19)
    /// Days between recomputations.
    public var recomputeIntervalDays = 2

    /// The standard engine.
    public init() {}

    /// Completed results per local hour over the lookback ending `today`.
    public func histogram(of results: some Sequence<GameResult>, today: LocalDay) -> [Int] {
        var bins = [Int](repeating: 0, count: 24)
        let first = today.adding(days: -(lookbackDays - 1))
        for result in results where result.completed && result.day >= first && result.day <= today {
            bins[min(23, max(0, result.minuteOfDay / 60))] += 1
        }
        return bins
    }

    /// The hour the busiest window starts at, or nil when the histogram is empty.
    public func peakWindowStart(_ histogram: [Int]) -> Int? {
        guard histogram.count == 24, histogram.contains(where: { $0 > 0 }) else { return nil }
        var best = (start: 0, coverage: -1, first: -1)
        for start in 0..<24 {
            let coverage = (0..<windowHours).reduce(0) { $0 + histogram[(start + $1) % 24] }
            // Strictly better only: on a full tie the earlier start stays.
            if coverage > best.coverage || (coverage == best.coverage && histogram[start] > best.first) {
                best = (start, coverage, histogram[start])
            }
        }
        return best.start
    }

    /// The suggested reminder time for `results` as of `today`.
    public func suggestion(for results: some Sequence<GameResult>, today: LocalDay) -> ReminderTime {
        guard let start = peakWindowStart(histogram(of: results, today: today)) else { return fallback }
        return clamp(ReminderTime(minuteOfDay: start * 60 - leadMinutes))
    }

    /// `time` moved into `earliest`…`latest` by the nearer edge around the clock (`latest` when halfway).
    public func clamp(_ time: ReminderTime) -> ReminderTime {
        if time >= earliest && time <= latest { return time }
        let afterLatest = (time.minuteOfDay - latest.minuteOfDay + 1440) % 1440
        let beforeEarliest = (earliest.minuteOfDay - time.minuteOfDay + 1440) % 1440
        return afterLatest <= beforeEarliest ? latest : earliest
    }
}

/// The player's reminder settings.
public struct ReminderSettings: Hashable, Sendable, Codable {
    /// Whether the time follows the player's habits.
    public var smart: Bool
    /// The player's own time, used when `smart` is off.
    public var userTime: ReminderTime

    /// Settings from their parts.
    public init(smart: Bool, userTime: ReminderTime) {
        self.smart = smart
        self.userTime = userTime
    }
}

/// What the smart reminder last computed, kept between launches.
public struct SmartReminderState: Hashable, Sendable, Codable {
    /// The day of the last computation.
    public private(set) var computedOn: LocalDay?
    /// The time it suggested.
    public private(set) var suggested: ReminderTime?

    /// Nothing computed yet.
    public init() {}

    /// State from its parts.
    public init(computedOn: LocalDay?, suggested: ReminderTime?) {
        self.computedOn = computedOn
        self.suggested = suggested
    }

    /// The reminder time for `today` (called at launch and on each day change): the user's time when
    /// smart mode is off; otherwise the kept suggestion, recomputed first when none was computed yet
    /// or `engine.recomputeIntervalDays` days have passed since (a clock moved back also recomputes).
    /// - Returns: the time, and whether it was recomputed now.
    public mutating func reminderTime(
        settings: ReminderSettings, results: some Sequence<GameResult>, today: LocalDay, engine: ReminderEngine = .init()
    ) -> (time: ReminderTime, recomputed: Bool) {
        guard settings.smart else { return (settings.userTime, false) }
        if let computedOn, let suggested {
            let elapsed = today.days(since: computedOn)
            if elapsed >= 0 && elapsed < engine.recomputeIntervalDays { return (suggested, false) }
        }
        let time = engine.suggestion(for: results, today: today)
        computedOn = today
        suggested = time
        return (time, true)
    }
}
