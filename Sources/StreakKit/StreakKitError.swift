/// Every failure of StreakKit, one case per kind of problem, each with a message a person can act on.
///
/// Parsing never guesses: text that is not a share of a known game, or a share whose parts contradict
/// each other or leave a game's bounds, ends in one of these errors rather than in a wrong result.
public enum StreakKitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is empty or holds only white space.
    case emptyText
    /// The text is longer than a share can be (`limit` UTF-8 bytes); it is not parsed at all.
    case textTooLong(bytes: Int, limit: Int)
    /// No line of the text starts a share of a game in the catalog.
    case unrecognized
    /// The text starts a share of `game` but the share is incomplete or garbled (the reason says where).
    case malformed(game: GameID, reason: String)
    /// A value of a share of `game` is outside that game's bounds (`field` names it).
    case outOfBounds(game: GameID, field: String, value: Int)
    /// The catalog has no game with this id.
    case unknownGame(GameID)
    /// A time-zone identifier is not known to this system.
    case unknownTimeZone(String)

    /// A stable snake_case code for scripts (`kindred streaks parse --json`).
    public var code: String {
        switch self {
        case .emptyText: "empty_text"
        case .textTooLong: "text_too_long"
        case .unrecognized: "unrecognized"
        case .malformed: "malformed"
        case .outOfBounds: "out_of_bounds"
        case .unknownGame: "unknown_game"
        case .unknownTimeZone: "unknown_time_zone"
        }
    }

    /// One line for people and logs.
    public var description: String {
        switch self {
        case .emptyText: "the text is empty"
        case .textTooLong(let bytes, let limit): "the text is \(bytes) bytes long; a share is at most \(limit)"
        case .unrecognized: "no game share was recognised in the text"
        case .malformed(let game, let reason): "\(game.rawValue) share: \(reason)"
        case .outOfBounds(let game, let field, let value): "\(game.rawValue) share: \(field) \(value) is out of bounds"
        case .unknownGame(let id): "no game has the id \(id.rawValue)"
        case .unknownTimeZone(let id): "unknown time zone \(id)"
        }
    }
}
