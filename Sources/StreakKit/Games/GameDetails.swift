/// What a share says beyond its score, one case per kind of game.
public enum GameDetails: Hashable, Sendable, Codable {
    /// Wordle, Nerdle: the colour grid (empty when the share had only its header) and hard mode.
    case guessGrid(GuessGrid)
    /// Quordle, Octordle, Dordle: the guesses each board took (`nil` for a board left unsolved).
    case boards(BoardResults)
    /// Connections: the rows of colours, the groups in the order solved, the mistakes.
    case connections(ConnectionsDetails)
    /// Strands: the theme, the hints, the theme words and where the spangram came.
    case strands(StrandsDetails)
    /// Spelling Bee: the rank and counts the share states.
    case spellingBee(SpellingBeeDetails)
    /// A game scored by time alone (Mini Crossword, Queens, Tango, Crossclimb, Mini Sudoku).
    case timed(TimedDetails)
    /// Pips: the difficulty and time.
    case pips(PipsDetails)
    /// Zip: the time and the backtracks.
    case zip(ZipDetails)
    /// Pinpoint: the guesses and, in the numbered format, each guess's match percentage.
    case pinpoint(PinpointDetails)
    /// Framed: the frames seen before the answer (or all six when missed).
    case framed(FramedDetails)
}

/// One tile of a Wordle-like grid.
public enum Tile: String, Hashable, Sendable, Codable {
    /// In the word, in this place (🟩, or 🟧 in high-contrast mode).
    case correct = "c"
    /// In the word elsewhere (🟨, Nerdle's 🟪, or 🟦 in high-contrast mode).
    case present = "p"
    /// Not in the word (⬛ dark theme, ⬜ light theme).
    case absent = "a"
}

/// A Wordle or Nerdle grid.
public struct GuessGrid: Hashable, Sendable, Codable {
    /// Whether the share was played in hard mode (the `*` after the score).
    public let hardMode: Bool
    /// The rows, first guess first; empty when the share had no grid.
    public let rows: [[Tile]]
    /// A grid from its parts.
    public init(hardMode: Bool, rows: [[Tile]]) {
        self.hardMode = hardMode
        self.rows = rows
    }
}

/// The boards of a multi-board game.
public struct BoardResults: Hashable, Sendable, Codable {
    /// Guesses per board in the share's reading order; `nil` is a board left unsolved (🟥).
    public let boards: [Int?]
    /// The score the share printed itself (Octordle's `Score: N`), if any.
    public let reportedScore: Int?
    /// Boards from their parts.
    public init(boards: [Int?], reportedScore: Int?) {
        self.boards = boards
        self.reportedScore = reportedScore
    }
}

/// A Connections group colour, easiest to hardest.
public enum ConnectionsColor: String, Hashable, Sendable, Codable, CaseIterable {
    /// 🟨
    case yellow
    /// 🟩
    case green
    /// 🟦
    case blue
    /// 🟪
    case purple
}

/// A Connections game.
public struct ConnectionsDetails: Hashable, Sendable, Codable {
    /// Every guess as four colours, first guess first.
    public let rows: [[ConnectionsColor]]
    /// The groups solved, in the order solved.
    public let solved: [ConnectionsColor]
    /// Guesses that were not a group (four end the game).
    public let mistakes: Int
    /// Details from their parts.
    public init(rows: [[ConnectionsColor]], solved: [ConnectionsColor], mistakes: Int) {
        self.rows = rows
        self.solved = solved
        self.mistakes = mistakes
    }
}

/// A Strands game.
public struct StrandsDetails: Hashable, Sendable, Codable {
    /// The theme line, without its quotation marks.
    public let theme: String
    /// Hints used (💡).
    public let hints: Int
    /// Theme words found (🔵), the spangram not included.
    public let themeWords: Int
    /// Where the spangram (🟡) came among the words found, 1 = first.
    public let spangramPosition: Int
    /// Details from their parts.
    public init(theme: String, hints: Int, themeWords: Int, spangramPosition: Int) {
        self.theme = theme
        self.hints = hints
        self.themeWords = themeWords
        self.spangramPosition = spangramPosition
    }
}

/// Spelling Bee's ranks, lowest first.
public enum SpellingBeeRank: String, Hashable, Sendable, Codable, CaseIterable {
    /// Beginner.
    case beginner = "Beginner"
    /// Good Start.
    case goodStart = "Good Start"
    /// Moving Up.
    case movingUp = "Moving Up"
    /// Good.
    case good = "Good"
    /// Solid.
    case solid = "Solid"
    /// Nice.
    case nice = "Nice"
    /// Great.
    case great = "Great"
    /// Amazing.
    case amazing = "Amazing"
    /// Genius (70 % of the points).
    case genius = "Genius"
    /// Queen Bee (every word).
    case queenBee = "Queen Bee"
}

/// A Spelling Bee share.
public struct SpellingBeeDetails: Hashable, Sendable, Codable {
    /// The rank reached, when the share names it.
    public let rank: SpellingBeeRank?
    /// Words found, when the share counts them.
    public let words: Int?
    /// Pangrams found, when the share counts them.
    public let pangrams: Int?
    /// Details from their parts.
    public init(rank: SpellingBeeRank?, words: Int?, pangrams: Int?) {
        self.rank = rank
        self.words = words
        self.pangrams = pangrams
    }
}

/// A game scored by time.
public struct TimedDetails: Hashable, Sendable, Codable {
    /// The solve time in seconds (also the result's score).
    public let seconds: Int
    /// Whether the share says "flawless" (LinkedIn: no mistakes or undos).
    public let flawless: Bool
    /// Details from their parts.
    public init(seconds: Int, flawless: Bool) {
        self.seconds = seconds
        self.flawless = flawless
    }
}

/// Pips's three daily puzzles.
public enum PipsDifficulty: String, Hashable, Sendable, Codable, CaseIterable {
    /// Easy (🟢).
    case easy
    /// Medium (🟡).
    case medium
    /// Hard (🟣).
    case hard
}

/// A Pips share.
public struct PipsDetails: Hashable, Sendable, Codable {
    /// Which of the day's puzzles.
    public let difficulty: PipsDifficulty
    /// The solve time in seconds.
    public let seconds: Int
    /// Details from their parts.
    public init(difficulty: PipsDifficulty, seconds: Int) {
        self.difficulty = difficulty
        self.seconds = seconds
    }
}

/// A Zip share.
public struct ZipDetails: Hashable, Sendable, Codable {
    /// The solve time in seconds.
    public let seconds: Int
    /// Backtracks, when the share counts them ("With 2 backtracks", "With no backtracks").
    public let backtracks: Int?
    /// Whether the share says "flawless".
    public let flawless: Bool
    /// Details from their parts.
    public init(seconds: Int, backtracks: Int?, flawless: Bool) {
        self.seconds = seconds
        self.backtracks = backtracks
        self.flawless = flawless
    }
}

/// The two share formats Pinpoint has used.
public enum PinpointFormat: String, Hashable, Sendable, Codable {
    /// `🤔 📌 ⬜ ⬜ ⬜ (2/5)`.
    case emoji
    /// `Pinpoint #300 | 3 guesses` then `1️⃣ | 5% match` rows (the older format).
    case numbered
}

/// A Pinpoint share.
public struct PinpointDetails: Hashable, Sendable, Codable {
    /// Guesses made (five when missed).
    public let guesses: Int
    /// Each guess's match percentage (numbered format only).
    public let matchPercentages: [Int]
    /// The format the share used.
    public let format: PinpointFormat
    /// Details from their parts.
    public init(guesses: Int, matchPercentages: [Int], format: PinpointFormat) {
        self.guesses = guesses
        self.matchPercentages = matchPercentages
        self.format = format
    }
}

/// A Framed share.
public struct FramedDetails: Hashable, Sendable, Codable {
    /// Frames guessed wrong (🟥) before the answer, or all six when missed.
    public let wrongGuesses: Int
    /// Details from their parts.
    public init(wrongGuesses: Int) { self.wrongGuesses = wrongGuesses }
}
