import Foundation

/// The last day a streak saw a result: its local day, the latest recording that day, and the zone's
/// UTC offset then (how the day looked where it was played).
public struct PlayedDay: Hashable, Sendable, Codable {
    /// The local calendar day of the results.
    public let day: LocalDay
    /// The latest recording on that day.
    public let lastRecordedAt: Date
    /// The recording zone's offset from UTC, in seconds.
    public let utcOffsetSeconds: Int

    /// A played day from its parts.
    public init(day: LocalDay, lastRecordedAt: Date, utcOffsetSeconds: Int) {
        self.day = day
        self.lastRecordedAt = lastRecordedAt
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}

/// A player's streak in one game, counted in local calendar days (ISO weeks for weekly games).
///
/// Rules (docs/streaksync-device.md, "Streaks"): a day's outcome is completed when any result that
/// day is completed, failed otherwise. A completed day right after the last played day grows the
/// streak; after a gap it restarts at 1; a failed day resets it to 0. Each result keeps the day it was
/// recorded on, so a time-zone change never moves a played day: a day is counted once, and a day the
/// player never had (crossing the date line eastbound) is not a gap when the last play, seen in the
/// new zone, fell on the day before.
public struct Streak: Hashable, Sendable, Codable {
    /// The game.
    public let game: GameID
    /// Days or weeks.
    public let cadence: Cadence
    /// The streak now (0 when broken or never started).
    public private(set) var current: Int
    /// The longest streak ever reached.
    public private(set) var longest: Int
    /// The last day with a result of this game.
    public private(set) var lastPlayed: PlayedDay?
    /// Whether the last played day (week) had a completed result.
    public private(set) var lastPlayedCompleted: Bool
    /// The streak carried into the last played day before its outcome (a later completed result on
    /// the same day can still turn a failed day into a completed one).
    private var carried: Int

    /// A streak that has not started.
    public init(game: GameID, cadence: Cadence = .daily) {
        self.game = game
        self.cadence = cadence
        current = 0
        longest = 0
        lastPlayed = nil
        lastPlayedCompleted = false
        carried = 0
    }

    /// Adds a result of this game in day order.
    /// - Returns: false (and changes nothing) when the result's day (week) is before the last played
    ///   one or the result is another game's: recompute with `StreakCalculator` from the history.
    @discardableResult
    public mutating func record(_ result: GameResult) -> Bool {
        guard result.game == game else { return false }
        guard let last = lastPlayed else {
            carried = 0
            lastPlayedCompleted = result.completed
            current = result.completed ? 1 : 0
            lastPlayed = PlayedDay(day: result.day, lastRecordedAt: result.recordedAt, utcOffsetSeconds: result.utcOffsetSeconds)
            longest = max(longest, current)
            return true
        }
        let period = self.period(result.day)
        let lastPeriod = self.period(last.day)
        if period < lastPeriod { return false }
        if period == lastPeriod {
            lastPlayedCompleted = lastPlayedCompleted || result.completed
            current = lastPlayedCompleted ? carried + 1 : 0
            if result.day >= last.day, result.recordedAt > last.lastRecordedAt || result.day > last.day {
                lastPlayed = PlayedDay(day: result.day, lastRecordedAt: result.recordedAt, utcOffsetSeconds: result.utcOffsetSeconds)
            }
        } else {
            carried = follows(day: result.day, utcOffsetSeconds: result.utcOffsetSeconds, after: last) ? current : 0
            lastPlayedCompleted = result.completed
            current = result.completed ? carried + 1 : 0
            lastPlayed = PlayedDay(day: result.day, lastRecordedAt: result.recordedAt, utcOffsetSeconds: result.utcOffsetSeconds)
        }
        longest = max(longest, current)
        return true
    }

    /// The streak as it stands at `now` in `timeZone`: broken (0) when neither today nor the day before
    /// was played (what the app runs at launch and on day change).
    public func normalized(now: Date, timeZone: TimeZone) -> Streak {
        guard let last = lastPlayed else { return self }
        let today = LocalTime(now, in: timeZone)
        if period(last.day) >= period(today.day) { return self }
        if follows(day: today.day, utcOffsetSeconds: today.utcOffsetSeconds, after: last) { return self }
        var broken = self
        broken.current = 0
        broken.carried = 0
        return broken
    }

    /// Where the streak stands at `now` in `timeZone`.
    public func status(now: Date, timeZone: TimeZone) -> StreakStatus {
        let streak = normalized(now: now, timeZone: timeZone)
        guard streak.current > 0, let last = streak.lastPlayed else { return .inactive }
        let today = LocalTime(now, in: timeZone).day
        return period(last.day) >= period(today) && streak.lastPlayedCompleted ? .safe : .atRisk
    }

    /// Whether the streak is alive at `now` but has no completed result today (this week).
    public func isAtRisk(now: Date, timeZone: TimeZone) -> Bool { status(now: now, timeZone: timeZone) == .atRisk }

    /// Day ordinal for daily games, Monday-based week ordinal for weekly ones.
    private func period(_ day: LocalDay) -> Int { cadence == .daily ? day.ordinal : day.weekOrdinal }

    /// Whether a day played in a zone `utcOffsetSeconds` east of UTC continues a streak whose last day
    /// is `last`: it is the next day (week), or — daily games, after a time-zone change — the last
    /// play seen in the new zone fell on the day before.
    private func follows(day: LocalDay, utcOffsetSeconds: Int, after last: PlayedDay) -> Bool {
        let gap = period(day) - period(last.day)
        if gap == 1 { return true }
        guard gap > 1, cadence == .daily, utcOffsetSeconds != last.utcOffsetSeconds else { return false }
        let seenFromNewZone = LocalTime(last.lastRecordedAt, utcOffsetSeconds: utcOffsetSeconds).day
        return seenFromNewZone.ordinal >= day.ordinal - 1
    }
}

/// Where a streak stands today.
public enum StreakStatus: String, Hashable, Sendable, Codable {
    /// No streak running (never started, broken, or the last day failed).
    case inactive
    /// Running, and today (this week) already has a completed result.
    case safe
    /// Running, but today (this week) has no completed result yet.
    case atRisk = "at-risk"
}

/// Computes streaks from the whole history of results.
public enum StreakCalculator {
    /// `game`'s streak from `results` (any order, any games, duplicates allowed), normalised at `now`.
    public static func streak(
        for game: Game, results: some Sequence<GameResult>, now: Date, timeZone: TimeZone
    ) -> Streak {
        var streak = Streak(game: game.id, cadence: game.cadence)
        let ordered = results.filter { $0.game == game.id }.sorted { ($0.day, $0.recordedAt) < ($1.day, $1.recordedAt) }
        for result in ordered { streak.record(result) }
        return streak.normalized(now: now, timeZone: timeZone)
    }

    /// Every game's streak in `catalog` from `results`, normalised at `now`.
    public static func streaks(
        in catalog: GameCatalog, results: [GameResult], now: Date, timeZone: TimeZone
    ) -> [GameID: Streak] {
        let byGame = Dictionary(grouping: results, by: \.game)
        var streaks: [GameID: Streak] = [:]
        for game in catalog.games {
            streaks[game.id] = streak(for: game, results: byGame[game.id] ?? [], now: now, timeZone: timeZone)
        }
        return streaks
    }
}
