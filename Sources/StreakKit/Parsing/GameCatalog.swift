import Foundation

/// Every game StreakSync follows and the parsers that read their shares; detects which game a pasted
/// text is a share of.
///
/// Detection (docs/streaksync-device.md, "Detection"): the text is split into trimmed lines; a line is
/// a header when one parser's strict header pattern matches it from its first letter or digit (emoji
/// and quote marks before it are skipped). Each header starts a block that runs to the next header.
/// `parse` returns the first block, in text order, that parses; when none does, the first block's
/// error; when there is no header, `.unrecognized`.
public struct GameCatalog: Sendable {
    /// The games, in catalog order.
    public let games: [Game]
    let parsers: [any ShareParser]
    private let parserIndex: [GameID: Int]
    /// For each ASCII code, the parsers (catalog order) whose header can start with it.
    private let candidates: [[Int]]

    /// A catalog of `parsers` (one per game).
    public init(parsers: [any ShareParser]) {
        self.parsers = parsers
        self.games = parsers.map(\.game)
        var index: [GameID: Int] = [:]
        for (i, parser) in parsers.enumerated() { index[parser.game.id] = i }
        self.parserIndex = index
        var candidates = [[Int]](repeating: [], count: 128)
        for (i, parser) in parsers.enumerated() {
            let initials = Set(parser.headerInitials.utf8.map(Scan.lower))
            for code in 0..<128 where initials.isEmpty || initials.contains(Scan.lower(UInt8(code))) {
                candidates[code].append(i)
            }
        }
        self.candidates = candidates
    }

    /// The standard catalog: every game of `Game.all`.
    public init() {
        self.init(parsers: [
            GuessGridParser.wordle, GuessGridParser.nerdle, BoardsParser.quordle, BoardsParser.quordleWeekly,
            BoardsParser.octordle, DordleParser(), ConnectionsParser(), StrandsParser(), SpellingBeeParser(),
            MiniCrosswordParser(), PipsParser(), LinkedInTimedParser.queens, LinkedInTimedParser.tango,
            LinkedInTimedParser.crossclimb, LinkedInTimedParser.zip, PinpointParser(), LinkedInTimedParser.miniSudoku,
            FramedParser(),
        ])
    }

    /// The game with this id.
    public func game(_ id: GameID) -> Game? { parserIndex[id].map { parsers[$0].game } }

    /// The game whose share `text` holds (the first that parses), or nil.
    public func detect(_ text: String) -> GameID? { try? parse(text).game }

    /// The first share in `text` (text order) that parses.
    /// - Throws: `.emptyText`, `.textTooLong`, `.unrecognized` when no line is a header, otherwise the
    ///   first header's error when no block parses.
    public func parse(_ text: String) throws(StreakKitError) -> ParsedShare {
        let share = try ShareText(text)
        var firstError: StreakKitError?
        for block in blocks(share) {
            do {
                return try checked(parsers[block.parser].parse(share.lines[block.lines]), by: parsers[block.parser])
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? .unrecognized
    }

    /// Every share in `text` that parses, in text order (a player's whole set of daily games pasted
    /// at once); blocks that do not parse are left out.
    /// - Throws: as `parse`, when not one block parses.
    public func parseAll(_ text: String) throws(StreakKitError) -> [ParsedShare] {
        let share = try ShareText(text)
        var shares: [ParsedShare] = []
        var firstError: StreakKitError?
        for block in blocks(share) {
            do {
                shares.append(try checked(parsers[block.parser].parse(share.lines[block.lines]), by: parsers[block.parser]))
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        guard !shares.isEmpty else { throw firstError ?? .unrecognized }
        return shares
    }

    /// `text` read as a share of `game`, which the player chose (manual entry): the first of the
    /// game's header blocks that parses, or, with no header, the parser's headerless reading.
    /// - Throws: `.unknownGame`, or the parser's error.
    public func parse(_ text: String, as game: GameID) throws(StreakKitError) -> ParsedShare {
        guard let index = parserIndex[game] else { throw .unknownGame(game) }
        let parser = parsers[index]
        let share = try ShareText(text)
        var firstError: StreakKitError?
        for block in blocks(share) where block.parser == index {
            do {
                return try checked(parser.parse(share.lines[block.lines]), by: parser)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        return try checked(parser.parseWithoutHeader(share.lines[...]), by: parser)
    }

    /// Parses `text` and records the share at `date` in `timeZone`.
    public func record(_ text: String, at date: Date, in timeZone: TimeZone) throws(StreakKitError) -> GameResult {
        GameResult(share: try parse(text), recordedAt: date, timeZone: timeZone)
    }

    /// Header lines and the blocks they start.
    private func blocks(_ share: ShareText) -> [(parser: Int, lines: Range<Int>)] {
        var headers: [(line: Int, parser: Int)] = []
        for (lineIndex, line) in share.lines.enumerated() where line.contentStart < line.scalars.endIndex {
            let initial = Int(line.scalars[line.contentStart].value)  // an ASCII letter or digit
            if let parser = candidates[initial].first(where: { parsers[$0].isHeader(line) }) {
                headers.append((lineIndex, parser))
            }
        }
        return headers.enumerated().map { i, header in
            let end = i + 1 < headers.count ? headers[i + 1].line : share.lines.count
            return (header.parser, header.line..<end)
        }
    }

    /// A parser's result, refused when it falls outside its game's bounds (a parser bug, never passed on).
    private func checked(_ share: ParsedShare, by parser: any ShareParser) throws(StreakKitError) -> ParsedShare {
        guard parser.game.admits(share) else {
            throw .malformed(game: parser.game.id, reason: "the result is outside the game's bounds")
        }
        return share
    }
}
