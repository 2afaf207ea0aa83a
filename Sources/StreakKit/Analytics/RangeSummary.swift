import Foundation

/// One game's figures over a range.
public struct GameRangeStats: Hashable, Sendable, Codable {
    /// The game.
    public let game: GameID
    /// Results recorded.
    public let played: Int
    /// Results completed.
    public let completed: Int
    /// The mean score of the completed results, in the game's own unit; nil when none was completed.
    public let averageScore: Double?
}

/// What the player did over a range of local days.
///
/// `currentStreak` and `longestStreak` count days with at least one completed result (of the game
/// asked for, or of any game): the current run ends today, or yesterday while today has none yet, and
/// may start before the range; the longest run is the longest inside the range.
public struct RangeSummary: Hashable, Sendable, Codable {
    /// The range.
    public let range: AnalyticsRange
    /// Its first day.
    public let firstDay: LocalDay
    /// Its last day (today).
    public let lastDay: LocalDay
    /// Results recorded in the range.
    public let played: Int
    /// Results completed in the range.
    public let completed: Int
    /// `completed / played`, 0 when nothing was played.
    public let completionRate: Double
    /// Distinct days with a result.
    public let daysPlayed: Int
    /// The mean score of the completed results (meaningful for one game); nil when none was completed.
    public let averageScore: Double?
    /// Per game, most played first, then by id.
    public let games: [GameRangeStats]
    /// Consecutive days with a completed result up to today.
    public let currentStreak: Int
    /// The longest run of days with a completed result inside the range.
    public let longestStreak: Int
}

/// Pure analytics over a player's results.
public enum Analytics {
    /// The summary of `results` over `range` ending today at `now` in `timeZone`, for `game` only when
    /// given. Results keep the day they were recorded on; duplicates should be removed first
    /// (`GameResult.deduplicated`).
    public static func summary(
        of results: [GameResult], range: AnalyticsRange, game: GameID? = nil, now: Date, timeZone: TimeZone
    ) -> RangeSummary {
        let today = LocalDay(now, in: timeZone)
        let span = range.days(endingOn: today)
        // One pass each over every result, copying only the ones in range (scripts/bench-streak-analytics).
        let inRange = results.filter { span.contains($0.day) && (game == nil || $0.game == game) }
        let completed = inRange.filter(\.completed)
        let byGame = Dictionary(grouping: inRange, by: \.game).map { id, list in
            let done = list.filter(\.completed)
            return GameRangeStats(game: id, played: list.count, completed: done.count, averageScore: mean(done.map(\.score)))
        }.sorted { ($1.played, $0.game.rawValue) < ($0.played, $1.game.rawValue) }
        var completedDaysEver = Set<LocalDay>()
        for result in results where result.completed && (game == nil || result.game == game) { completedDaysEver.insert(result.day) }
        return RangeSummary(
            range: range, firstDay: span.lowerBound, lastDay: span.upperBound, played: inRange.count,
            completed: completed.count, completionRate: inRange.isEmpty ? 0 : Double(completed.count) / Double(inRange.count),
            daysPlayed: Set(inRange.map(\.day)).count, averageScore: mean(completed.map(\.score)), games: byGame,
            currentStreak: DayRuns.current(completedDaysEver, today: today),
            longestStreak: DayRuns.longest(Set(completed.map(\.day))))
    }

    /// The arithmetic mean, nil for no values.
    static func mean(_ values: [Int]) -> Double? {
        values.isEmpty ? nil : Double(values.reduce(0, +)) / Double(values.count)
    }

    /// The median (the mean of the two middle values for an even count), nil for no values.
    static func median(_ values: [Int]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }
}
