/// A game's permanent id: lower-case ASCII words joined by `-`, never changed once shipped (results,
/// streaks and sync records refer to it).
public struct GameID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id as stored and sent (`wordle`, `linkedin-queens`, …).
    public let rawValue: String

    /// Wraps a stored id (no check: an unknown id is reported when it is looked up).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a literal id.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// Decodes the bare string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// Orders ids by their raw value.
    public static func < (lhs: GameID, rhs: GameID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The raw value.
    public var description: String { rawValue }
}

extension GameID {
    /// NYT Wordle.
    public static let wordle: GameID = "wordle"
    /// Nerdle (classic, eight-character equations).
    public static let nerdle: GameID = "nerdle"
    /// Merriam-Webster's Daily Quordle.
    public static let quordle: GameID = "quordle"
    /// Merriam-Webster's Weekly Quordle Challenge.
    public static let quordleWeekly: GameID = "quordle-weekly"
    /// Daily Octordle.
    public static let octordle: GameID = "octordle"
    /// Daily Dordle.
    public static let dordle: GameID = "dordle"
    /// NYT Connections.
    public static let connections: GameID = "connections"
    /// NYT Strands.
    public static let strands: GameID = "strands"
    /// NYT Spelling Bee.
    public static let spellingBee: GameID = "spelling-bee"
    /// NYT Mini Crossword.
    public static let miniCrossword: GameID = "mini-crossword"
    /// NYT Pips (one result per difficulty a day).
    public static let pips: GameID = "pips"
    /// LinkedIn Queens.
    public static let queens: GameID = "linkedin-queens"
    /// LinkedIn Tango.
    public static let tango: GameID = "linkedin-tango"
    /// LinkedIn Crossclimb.
    public static let crossclimb: GameID = "linkedin-crossclimb"
    /// LinkedIn Zip.
    public static let zip: GameID = "linkedin-zip"
    /// LinkedIn Pinpoint.
    public static let pinpoint: GameID = "linkedin-pinpoint"
    /// LinkedIn Mini Sudoku.
    public static let miniSudoku: GameID = "linkedin-mini-sudoku"
    /// Framed (guess the film from six frames).
    public static let framed: GameID = "framed"
}
