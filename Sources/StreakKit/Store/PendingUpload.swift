import Foundation

/// One record waiting in the offline queue for the server.
public struct PendingUpload: Hashable, Sendable {
    /// What kind of record waits.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A result (its id is a `GameResultID`).
        case result
        /// A category's achievement progress (its id is an `AchievementID`).
        case achievement
        /// A day's score of one game for the leaderboard (its id is `game|yyyy-MM-dd`).
        case score
    }

    /// The queue's order: lower first.
    public let seq: Int64
    /// The kind.
    public let kind: Kind
    /// The record's id (see `Kind`).
    public let recordID: String
    /// When it was first queued.
    public let enqueuedAt: Date
    /// Failed upload tries so far.
    public let attempts: Int
    /// Why the last try failed, if one did.
    public let lastError: String?

    /// A pending upload from its parts.
    public init(seq: Int64, kind: Kind, recordID: String, enqueuedAt: Date, attempts: Int, lastError: String?) {
        self.seq = seq
        self.kind = kind
        self.recordID = recordID
        self.enqueuedAt = enqueuedAt
        self.attempts = attempts
        self.lastError = lastError
    }

    /// The record id of `game`'s score on `day`.
    public static func scoreID(game: GameID, day: LocalDay) -> String { "\(game.rawValue)|\(day)" }

    /// The game and day of a `score` upload, or nil for another kind or a malformed id.
    public var score: (game: GameID, day: LocalDay)? {
        guard kind == .score else { return nil }
        let parts = recordID.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let day = LocalDay(String(parts[1])) else { return nil }
        return (GameID(rawValue: String(parts[0])), day)
    }
}
