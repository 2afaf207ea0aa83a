/// Every way a `streaksync://` link can be malformed, each with a message a person can act on.
public enum StreakLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The link is longer than `limit` UTF-8 bytes; it is not parsed at all.
    case tooLong(bytes: Int, limit: Int)
    /// The link does not start with `streaksync://`.
    case wrongScheme
    /// The part after `streaksync://` names no kind of link (`game`, `result`, `achievement`, `friend`).
    case unknownHost(String)
    /// A link of this kind needs an id after the host and has none.
    case missingPathComponent(host: String)
    /// The link has more path parts than its kind takes.
    case extraPathComponents(host: String)
    /// The catalog (`Game.all`) has no game with this id.
    case unknownGame(GameID)
    /// An id holds a character outside `A–Z a–z 0–9 - . _ ~ :` (percent escapes are not accepted).
    case invalidIdentifier(String)
    /// The link has a query item (or fragment) its kind does not take; the key is given.
    case unexpectedQuery(String)
    /// A friend link has no `code`.
    case missingCode
    /// A friend code is not six characters of the unambiguous alphabet (no 0, O, 1 or I).
    case invalidCode(String)

    /// A stable snake_case code for scripts.
    public var code: String {
        switch self {
        case .tooLong: "link_too_long"
        case .wrongScheme: "wrong_scheme"
        case .unknownHost: "unknown_host"
        case .missingPathComponent: "missing_path_component"
        case .extraPathComponents: "extra_path_components"
        case .unknownGame: "unknown_game"
        case .invalidIdentifier: "invalid_identifier"
        case .unexpectedQuery: "unexpected_query"
        case .missingCode: "missing_code"
        case .invalidCode: "invalid_code"
        }
    }

    /// One line for people and logs.
    public var description: String {
        switch self {
        case .tooLong(let bytes, let limit): "the link is \(bytes) bytes long; a link is at most \(limit)"
        case .wrongScheme: "the link does not start with streaksync://"
        case .unknownHost(let host): "streaksync://\(host) is not a kind of link StreakSync opens"
        case .missingPathComponent(let host): "a \(host) link needs an id after \(host)/"
        case .extraPathComponents(let host): "a \(host) link takes exactly one id after \(host)/"
        case .unknownGame(let game): "no game has the id \(game.rawValue)"
        case .invalidIdentifier(let id): "\(id) is not a valid id (letters, digits, - . _ ~ : only)"
        case .unexpectedQuery(let key): "the link has an unexpected part: \(key)"
        case .missingCode: "a friend link needs ?code= with a six-character code"
        case .invalidCode(let code): "\(code) is not a friend code (six of A–Z and 2–9, without O and I)"
        }
    }
}
