import Foundation
import StreakKit

/// One day's score of one game as it will be published to the leaderboards: the payload kept in
/// the device's secure store until the server has accepted it (docs/streaksync-device.md,
/// "Pending scores and `SecureStore`").
public struct PendingScore: Hashable, Sendable, Codable {
    /// The game.
    public var game: GameID
    /// The player's local day the score belongs to.
    public var day: LocalDay
    /// The day's best score, in the game's unit.
    public var score: Int
    /// The game's maximum (guesses allowed, seconds, points).
    public var max: Int
    /// Whether the best result of the day was completed.
    public var completed: Bool
    /// The game's streak as it stood that day (the 🔥 badge).
    public var currentStreak: Int
    /// The zone the result was played in (an IANA identifier), when known.
    public var timeZone: String?

    /// A score from its parts.
    public init(game: GameID, day: LocalDay, score: Int, max: Int, completed: Bool, currentStreak: Int, timeZone: String?) {
        self.game = game
        self.day = day
        self.score = score
        self.max = max
        self.completed = completed
        self.currentStreak = currentStreak
        self.timeZone = timeZone
    }

    /// The queue's id of this score (`game|yyyy-MM-dd`, as `PendingUpload.scoreID`).
    public var id: String { PendingUpload.scoreID(game: game, day: day) }
}
