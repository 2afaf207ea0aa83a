import Foundation
import StreakKit

/// Results of games other than Wordle for the store's tests (`Fixtures.result` makes Wordle-shaped ones).
enum StoreFixtures {
    /// A Connections result on `day` at `hour` UTC: solved with `score - 4` mistakes, or failed.
    static func connections(day: LocalDay, hour: Int = 12, score: Int = 4, completed: Bool = true) -> GameResult {
        let share = ParsedShare(
            game: .connections, puzzle: 500 + day.ordinal % 1_000, score: score, maxScore: 7, completed: completed,
            details: .connections(ConnectionsDetails(
                rows: [], solved: completed ? [.yellow, .green, .blue, .purple] : [], mistakes: completed ? score - 4 : 4)))
        return GameResult(
            share: share, recordedAt: Fixtures.instant(day, hour: hour), day: day, minuteOfDay: hour * 60, utcOffsetSeconds: 0,
            timeZoneIdentifier: "UTC")
    }
}
