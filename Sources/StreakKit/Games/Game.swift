/// How a game ranks its results.
public enum ScoringModel: String, Hashable, Sendable, Codable, CaseIterable {
    /// Fewer attempts are better (Wordle-like: the score counts guess rows or board guesses).
    case fewerAttempts = "fewer-attempts"
    /// Less time is better (the score is seconds).
    case lessTime = "less-time"
    /// A higher score is better (Spelling Bee points).
    case higherScore = "higher-score"
    /// Fewer hints are better (Strands).
    case fewerHints = "fewer-hints"
    /// Fewer guesses are better (Connections, Pinpoint, Framed: whole guesses rather than grid rows).
    case fewerGuesses = "fewer-guesses"

    /// Whether a smaller score is the better one.
    public var lowerIsBetter: Bool { self != .higherScore }
}

/// How often a game publishes a puzzle, which is the period a streak counts in.
public enum Cadence: String, Hashable, Sendable, Codable {
    /// One puzzle a day: streaks count local calendar days.
    case daily
    /// One puzzle a week: streaks count ISO weeks (Monday to Sunday, local calendar).
    case weekly
}

/// The values a game's results can take; every parsed result is checked against them.
public struct ScoreBounds: Hashable, Sendable {
    /// Every score a result can carry, completed or failed.
    public let scores: ClosedRange<Int>
    /// The worst score of a completed result (a result's `maxScore`): the guesses allowed, the
    /// time cap, or the highest score a share can claim.
    public let maxScore: Int
    /// The puzzle numbers the game uses (a date `yyyymmdd` for games that number by date).
    public let puzzles: ClosedRange<Int>

    /// Bounds from their parts.
    public init(scores: ClosedRange<Int>, maxScore: Int, puzzles: ClosedRange<Int>) {
        self.scores = scores
        self.maxScore = maxScore
        self.puzzles = puzzles
    }
}

/// One game StreakSync follows: its permanent id, the name people know, how it scores and its bounds.
public struct Game: Identifiable, Hashable, Sendable {
    /// Never changes once shipped.
    public let id: GameID
    /// The name shown to people.
    public let name: String
    /// Who publishes it (NYT, LinkedIn, …).
    public let publisher: String
    /// How results rank.
    public let scoring: ScoringModel
    /// How often a puzzle appears (the unit a streak counts).
    public let cadence: Cadence
    /// The values a result can take.
    public let bounds: ScoreBounds
    /// A share as the game produces it (documentation, tests and the benchmark corpus).
    public let exampleShare: String

    /// A game from its parts.
    public init(
        id: GameID, name: String, publisher: String, scoring: ScoringModel, cadence: Cadence = .daily,
        bounds: ScoreBounds, exampleShare: String
    ) {
        self.id = id
        self.name = name
        self.publisher = publisher
        self.scoring = scoring
        self.cadence = cadence
        self.bounds = bounds
        self.exampleShare = exampleShare
    }

    /// Whether `share` is a result this game can produce: the game matches, the score, maximum and
    /// puzzle number are within bounds, and a completed result does not score worse than the maximum.
    public func admits(_ share: ParsedShare) -> Bool {
        guard share.game == id, share.maxScore == bounds.maxScore, bounds.scores.contains(share.score) else { return false }
        if let puzzle = share.puzzle, !bounds.puzzles.contains(puzzle) { return false }
        if share.completed {
            return scoring.lowerIsBetter ? share.score <= bounds.maxScore : share.score >= bounds.scores.lowerBound
        }
        return true
    }
}
