/// Quordle (`Daily Quordle 1012` / `Weekly Quordle Challenge 143`, two rows of two keycaps, 🟥 for
/// an unsolved board) and Octordle (`Daily Octordle #1012`, four rows of two, 🔟 and the clocks
/// 🕚🕛🕐 for 10–13, then `Score: N`).
struct BoardsParser: ShareParser {
    enum Kind { case quordleDaily, quordleWeekly, octordle }

    let game: Game
    let kind: Kind
    let boardCount: Int
    /// Guesses the game allows.
    let allowed: Int
    var headerInitials: String { kind == .quordleWeekly ? "w" : "d" }

    static let quordle = BoardsParser(game: .quordle, kind: .quordleDaily, boardCount: 4, allowed: 9)
    static let quordleWeekly = BoardsParser(game: .quordleWeekly, kind: .quordleWeekly, boardCount: 4, allowed: 9)
    static let octordle = BoardsParser(game: .octordle, kind: .octordle, boardCount: 8, allowed: 13)

    private func puzzle(_ line: ShareLine) -> Int? {
        var scan = Scan(content: line)
        switch kind {
        case .quordleDaily:
            guard scan.literal("daily"), scan.word("quordle") else { return nil }
        case .quordleWeekly:
            guard scan.literal("weekly"), scan.word("quordle") else { return nil }
            _ = scan.word("challenge")
        case .octordle:
            guard scan.literal("daily"), scan.word("octordle") else { return nil }
        }
        guard let p = scan.peek, ShareLine.isBlank(p) || p.value == 0x23, let number = scan.puzzleNumber(hashRequired: false),
            scan.restIsDecoration()
        else { return nil }
        return number
    }

    func isHeader(_ line: ShareLine) -> Bool { puzzle(line) != nil }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, let puzzle = puzzle(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a \(game.name) header")
        }
        try requireBounds(game.id, "puzzle number", puzzle, game.bounds.puzzles)
        var boards: [Int?] = []
        var reported: Int?
        var body = lines.dropFirst()[...]
        while boards.count < boardCount {
            guard let line = body.first else {
                throw .malformed(game: game.id, reason: "\(boards.count) of \(boardCount) boards")
            }
            body = body.dropFirst()
            boards += try row(line)
        }
        guard boards.count == boardCount else {
            throw .malformed(game: game.id, reason: "\(boards.count) boards, not \(boardCount)")
        }
        for line in body {
            var scan = Scan(content: line)
            if scan.literal("score"), scan.scalar(0x3A) {
                scan.skipSpaces()
                guard let value = scan.number(), scan.restIsDecoration() else {
                    throw .malformed(game: game.id, reason: "unreadable score line")
                }
                reported = value
                break
            }
        }
        let solved = boards.compactMap { $0 }
        guard Set(solved).count == solved.count else {
            throw .malformed(game: game.id, reason: "two boards solved with the same guess")
        }
        let missed = boardCount - solved.count
        let sum = solved.reduce(0, +)
        var score = sum + missed * (allowed + 1)
        if let reported {
            // Octordle prints its own score: the sum when every board is solved; a missed board
            // counts more than the 13 guesses allowed (the exact penalty is Octordle's, see the docs).
            let consistent = missed == 0 ? reported == sum : reported > sum + missed * allowed
            guard consistent else {
                throw .malformed(game: game.id, reason: "the score line \(reported) does not match the boards")
            }
            try requireBounds(game.id, "score", reported, game.bounds.scores)
            score = reported
        }
        try requireBounds(game.id, "score", score, game.bounds.scores)
        return ParsedShare(
            game: game.id, puzzle: puzzle, score: score, maxScore: game.bounds.maxScore, completed: missed == 0,
            details: .boards(BoardResults(boards: boards, reportedScore: reported)))
    }

    /// One row of two boards.
    private func row(_ line: ShareLine) throws(StreakKitError) -> [Int?] {
        var scan = Scan(line)
        var boards: [Int?] = []
        while true {
            scan.skipSpaces()
            if scan.atEnd { break }
            if scan.scalar(0x1F7E5) {
                boards.append(nil)
            } else if let guesses = scan.keycap() {
                guard (1...allowed).contains(guesses) else {
                    throw .outOfBounds(game: game.id, field: "board guesses", value: guesses)
                }
                boards.append(guesses)
            } else {
                throw .malformed(game: game.id, reason: "a board row holds something other than board scores")
            }
        }
        guard boards.count == 2 else {
            throw .malformed(game: game.id, reason: "a board row has \(boards.count) boards, not 2")
        }
        return boards
    }
}
