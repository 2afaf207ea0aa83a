import Foundation

/// A result's id: `game:puzzle[-variant]:yyyy-MM-dd` (`-` for a share without a puzzle number), the
/// same for every recording of one share on one local day, so recording it twice is idempotent.
public struct GameResultID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The id as stored and sent.
    public let rawValue: String
    /// Wraps a stored id.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The id of a result of `game`'s `puzzle` (and `variant`) recorded on `day`.
    public init(game: GameID, puzzle: Int?, variant: String?, day: LocalDay) {
        let puzzleText = puzzle.map(String.init) ?? "-"
        let variantText = variant.map { "-\($0)" } ?? ""
        rawValue = "\(game.rawValue):\(puzzleText)\(variantText):\(day)"
    }
    /// Decodes the bare string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// Orders by the raw value.
    public static func < (lhs: GameResultID, rhs: GameResultID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The raw value.
    public var description: String { rawValue }
}

/// A share recorded by a player at a moment: the parsed share plus the local day it counts for.
///
/// The day is the local calendar date in the zone the result was recorded in, stored with the result
/// and never recomputed: travelling later moves no result to another day (docs/streaksync-device.md,
/// "The streak day").
public struct GameResult: Identifiable, Hashable, Sendable, Codable {
    /// Deterministic from game, puzzle, variant and local day.
    public let id: GameResultID
    /// The game.
    public let game: GameID
    /// The puzzle number, or nil when the share has none.
    public let puzzle: Int?
    /// Which of a day's puzzles (Pips), or nil.
    public let variant: String?
    /// The score, in the unit of the game's scoring model.
    public let score: Int
    /// The worst score of a completed result.
    public let maxScore: Int
    /// Whether the puzzle was solved.
    public let completed: Bool
    /// Game-specific fields.
    public let details: GameDetails
    /// The local calendar day it counts for.
    public let day: LocalDay
    /// Minutes since local midnight when it was recorded (the reminder engine's histogram).
    public let minuteOfDay: Int
    /// The recording zone's offset from UTC at that moment, in seconds.
    public let utcOffsetSeconds: Int
    /// The recording zone's identifier (`Europe/Istanbul`), kept for display and audits.
    public let timeZoneIdentifier: String
    /// When it was recorded.
    public let recordedAt: Date

    /// Records `share` at `date` in `timeZone`.
    public init(share: ParsedShare, recordedAt date: Date, timeZone: TimeZone) {
        let local = LocalTime(date, in: timeZone)
        self.init(
            share: share, recordedAt: date, day: local.day, minuteOfDay: local.minuteOfDay,
            utcOffsetSeconds: local.utcOffsetSeconds, timeZoneIdentifier: timeZone.identifier)
    }

    /// A result from all its stored parts (persistence, sync, tests).
    public init(
        share: ParsedShare, recordedAt: Date, day: LocalDay, minuteOfDay: Int, utcOffsetSeconds: Int,
        timeZoneIdentifier: String
    ) {
        self.id = GameResultID(game: share.game, puzzle: share.puzzle, variant: share.variant, day: day)
        self.game = share.game
        self.puzzle = share.puzzle
        self.variant = share.variant
        self.score = share.score
        self.maxScore = share.maxScore
        self.completed = share.completed
        self.details = share.details
        self.day = day
        self.minuteOfDay = minuteOfDay
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZoneIdentifier = timeZoneIdentifier
        self.recordedAt = recordedAt
    }

    /// The share this result recorded.
    public var share: ParsedShare {
        ParsedShare(
            game: game, puzzle: puzzle, variant: variant, score: score, maxScore: maxScore, completed: completed,
            details: details)
    }

    /// Whether this result beats `other` of the same game: a solved puzzle beats an unsolved one, then
    /// the better score under `scoring` wins; a tie is not better.
    public func isBetter(than other: GameResult, scoring: ScoringModel) -> Bool {
        if completed != other.completed { return completed }
        return scoring.lowerIsBetter ? score < other.score : score > other.score
    }
}

extension GameResult {
    /// `results` with one record per id (the earliest recording wins, as a second recording of one
    /// share changes nothing) and, for shares with a puzzle number, one record per game, puzzle and
    /// variant (the same share pasted again on a later day keeps its first day), ordered by day,
    /// then recording time, then id.
    public static func deduplicated(_ results: some Sequence<GameResult>) -> [GameResult] {
        var byKey: [String: GameResult] = [:]
        for result in results {
            let key: String
            if let puzzle = result.puzzle {
                key = "\(result.game.rawValue):\(puzzle):\(result.variant ?? "")"
            } else {
                key = result.id.rawValue
            }
            if let kept = byKey[key], !(result.day < kept.day || (result.day == kept.day && result.recordedAt < kept.recordedAt)) {
                continue
            }
            byKey[key] = result
        }
        return byKey.values.sorted {
            ($0.day, $0.recordedAt, $0.id) < ($1.day, $1.recordedAt, $1.id)
        }
    }
}
