/// A `streaksync://` deep link as a typed payload (docs/streaksync-device.md, "Deep links").
///
/// `StreakLink.parse(link.url) == link` for every link.
public enum StreakLink: Hashable, Sendable {
    /// `streaksync://game/<gameId>`: open a game of the catalog.
    case game(GameID)
    /// `streaksync://result/<resultId>`: open a recorded result.
    case result(GameResultID)
    /// `streaksync://achievement/<achievementId>`: open an achievement.
    case achievement(String)
    /// `streaksync://friend?code=ABC234`: accept a friend invite.
    case friend(FriendCode)

    /// The scheme every link uses.
    public static let scheme = "streaksync"
    /// The longest link parsed, in UTF-8 bytes.
    public static let maxLength = 2048

    /// Every name a link is built from, kept in one place.
    public enum Key: String, CaseIterable, Sendable {
        /// Host of a game link.
        case game
        /// Host of a result link.
        case result
        /// Host of an achievement link.
        case achievement
        /// Host of a friend-invite link.
        case friend
        /// Query key of a friend-invite link's code.
        case code
    }

    /// The link as text.
    public var url: String {
        let prefix = "\(Self.scheme)://"
        switch self {
        case .game(let id): return "\(prefix)\(Key.game.rawValue)/\(id.rawValue)"
        case .result(let id): return "\(prefix)\(Key.result.rawValue)/\(id.rawValue)"
        case .achievement(let id): return "\(prefix)\(Key.achievement.rawValue)/\(id)"
        case .friend(let code): return "\(prefix)\(Key.friend.rawValue)?\(Key.code.rawValue)=\(code.rawValue)"
        }
    }

    /// Parses a `streaksync://` link.
    ///
    /// - Parameter text: the link, as opened by the system (no percent escapes).
    /// - Returns: the typed link.
    /// - Throws: `StreakLinkError` naming what is wrong.
    public static func parse(_ text: String) throws(StreakLinkError) -> StreakLink {
        let bytes = text.utf8.count
        guard bytes <= maxLength else { throw .tooLong(bytes: bytes, limit: maxLength) }
        let prefix = "\(scheme)://"
        guard text.lowercased().hasPrefix(prefix) else { throw .wrongScheme }
        var rest = Substring(text.dropFirst(prefix.count))
        if let hash = rest.firstIndex(of: "#") { throw .unexpectedQuery(String(rest[hash...])) }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        let hostText = String(parts[0])
        guard let host = Key(rawValue: hostText.lowercased()), host != .code else { throw .unknownHost(hostText) }
        let path = parts.dropFirst()

        if host == .friend {
            guard path.allSatisfy(\.isEmpty), path.count <= 1 else { throw .extraPathComponents(host: host.rawValue) }
            return .friend(try friendCode(query))
        }
        if let query { throw .unexpectedQuery("?\(query)") }
        guard let id = path.first, !id.isEmpty else { throw .missingPathComponent(host: host.rawValue) }
        guard path.count == 1 else { throw .extraPathComponents(host: host.rawValue) }
        let text = String(id)
        guard text.unicodeScalars.allSatisfy(isIdentifierScalar) else { throw .invalidIdentifier(text) }
        switch host {
        case .game:
            let game = GameID(rawValue: text)
            guard Game.all.contains(where: { $0.id == game }) else { throw .unknownGame(game) }
            return .game(game)
        case .result: return .result(GameResultID(rawValue: text))
        default: return .achievement(text)
        }
    }

    private static func friendCode(_ query: Substring?) throws(StreakLinkError) -> FriendCode {
        guard let query, !query.isEmpty else { throw .missingCode }
        var code: FriendCode?
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair[0] == Key.code.rawValue, code == nil else { throw .unexpectedQuery(String(pair[0])) }
            let value = pair.count == 2 ? String(pair[1]) : ""
            guard let parsed = FriendCode(rawValue: value) else { throw .invalidCode(value) }
            code = parsed
        }
        guard let code else { throw .missingCode }
        return code
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~", ":": true
        default: false
        }
    }
}
