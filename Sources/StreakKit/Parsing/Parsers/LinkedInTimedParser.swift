/// LinkedIn's timed games: `Queens #123` then `2:45 👑`, or on one line `Queens #386 | 0:11 First
/// 👑s: …`; `and flawless` after the time; Zip adds `With 2 backtracks 🛑` / `With no backtracks`.
/// The same reader serves Queens, Tango, Crossclimb, Mini Sudoku and Zip.
struct LinkedInTimedParser: ShareParser {
    let game: Game
    let name: StaticString
    var headerInitials: String { String(UnicodeScalar(name.utf8Start.pointee)) }

    static let queens = LinkedInTimedParser(game: .queens, name: "queens")
    static let tango = LinkedInTimedParser(game: .tango, name: "tango")
    static let crossclimb = LinkedInTimedParser(game: .crossclimb, name: "crossclimb")
    static let miniSudoku = LinkedInTimedParser(game: .miniSudoku, name: "mini sudoku")
    static let zip = LinkedInTimedParser(game: .zip, name: "zip")

    private func afterHeader(_ line: ShareLine) -> (Scan, Int)? {
        var scan = Scan(content: line)
        guard scan.literal(name), let puzzle = scan.puzzleNumber(hashRequired: true), scan.atWordBoundary else { return nil }
        var probe = scan
        probe.skipSpaces()
        // Nothing but decoration, or `| time …` / `- time …`, may follow the number.
        if probe.restIsDecoration() { return (scan, puzzle) }
        guard probe.scalar(0x7C) || probe.scalar(0x2D) else { return nil }
        probe.skipSpaces()
        guard probe.time() != nil else { return nil }
        return (scan, puzzle)
    }

    func isHeader(_ line: ShareLine) -> Bool { afterHeader(line) != nil }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, let header = afterHeader(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a \(game.name) header")
        }
        var scan = header.0
        let puzzle = header.1
        try requireBounds(game.id, "puzzle number", puzzle, game.bounds.puzzles)
        scan.skipSpaces()
        _ = scan.scalar(0x7C) || scan.scalar(0x2D)
        scan.skipSpaces()
        var body = lines.dropFirst()
        var seconds = scan.time()
        if seconds == nil, let next = body.first {
            scan = Scan(content: next)
            body = body.dropFirst()
            // `Time: 1:11` is accepted too.
            if scan.literal("time") { _ = scan.scalar(0x3A); scan.skipSpaces() }
            seconds = scan.time()
        }
        guard let seconds else { throw .malformed(game: game.id, reason: "no time after the header") }
        try requireBounds(game.id, "seconds", seconds, game.bounds.scores)
        let flawless = scan.word("and flawless")
        let details: GameDetails
        if game.id == .zip {
            var backtracks: Int?
            for var candidate in [scan] + body.prefix(1).map({ Scan($0) }) {
                if let count = try Self.backtracks(&candidate, game: game.id) { backtracks = count; break }
            }
            details = .zip(ZipDetails(seconds: seconds, backtracks: backtracks, flawless: flawless))
        } else {
            details = .timed(TimedDetails(seconds: seconds, flawless: flawless))
        }
        return ParsedShare(
            game: game.id, puzzle: puzzle, score: seconds, maxScore: game.bounds.maxScore, completed: true, details: details)
    }

    /// `With N backtrack(s)` / `With no backtracks` anywhere on the rest of the line.
    private static func backtracks(_ scan: inout Scan, game: GameID) throws(StreakKitError) -> Int? {
        while !scan.atEnd {
            if scan.literal("with") {
                scan.skipSpaces()
                let count: Int?
                if scan.literal("no") { count = 0 } else { count = scan.number() }
                if let count, scan.word("backtrack") {
                    try requireBounds(game, "backtracks", count, 0...9_999)
                    return count
                }
            }
            scan.index += 1
        }
        return nil
    }
}
