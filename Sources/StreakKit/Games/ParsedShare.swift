/// What a share text says, before it is recorded at a time and place.
///
/// Scores by scoring model (docs/streaksync-device.md, "Games"): guesses or board guesses for
/// attempts games (a failed single-board game scores `maxScore + 1`; an unsolved board counts as the
/// guesses allowed + 1), seconds for timed games, points for Spelling Bee, hints for Strands.
public struct ParsedShare: Hashable, Sendable, Codable {
    /// The game.
    public let game: GameID
    /// The puzzle number (`yyyymmdd` for games numbered by date), or nil when the share has none.
    public let puzzle: Int?
    /// Which of a day's puzzles, for games with several (Pips: `easy`, `medium`, `hard`).
    public let variant: String?
    /// The score, in the unit of the game's scoring model.
    public let score: Int
    /// The worst score a completed result can have (the game's `bounds.maxScore`).
    public let maxScore: Int
    /// Whether the puzzle was solved.
    public let completed: Bool
    /// Game-specific fields.
    public let details: GameDetails

    /// A share from its parts.
    public init(
        game: GameID, puzzle: Int?, variant: String? = nil, score: Int, maxScore: Int, completed: Bool,
        details: GameDetails
    ) {
        self.game = game
        self.puzzle = puzzle
        self.variant = variant
        self.score = score
        self.maxScore = maxScore
        self.completed = completed
        self.details = details
    }
}
