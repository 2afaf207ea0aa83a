/// Dordle: `Daily Dordle #0999 4&6/7` (`X` for an unsolved board), then a grid the parser does not need.
struct DordleParser: ShareParser {
    let game = Game.dordle
    let headerInitials = "d"
    private let allowed = 7

    private struct Header {
        let puzzle: Int
        let boards: [Int?]
    }

    private func header(_ line: ShareLine) -> Header? {
        var scan = Scan(content: line)
        guard scan.literal("daily"), scan.word("dordle"), let puzzle = scan.puzzleNumber(hashRequired: false),
            let p = scan.peek, ShareLine.isBlank(p)
        else { return nil }
        scan.skipSpaces()
        func board() -> Int?? {
            if scan.literal("x") { return .some(nil) }
            guard let p = scan.peek, let d = Scan.digit(p) else { return nil }
            scan.index += 1
            return .some(d)
        }
        guard let left = board(), scan.scalar(0x26), let right = board(), scan.scalar(0x2F), let total = scan.number(),
            total == allowed, scan.restIsDecoration()
        else { return nil }
        return Header(puzzle: puzzle, boards: [left, right])
    }

    func isHeader(_ line: ShareLine) -> Bool { header(line) != nil }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, let header = header(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a Dordle header")
        }
        try requireBounds(game.id, "puzzle number", header.puzzle, game.bounds.puzzles)
        let solved = header.boards.compactMap { $0 }
        for guesses in solved { try requireBounds(game.id, "board guesses", guesses, 1...allowed) }
        guard Set(solved).count == solved.count else {
            throw .malformed(game: game.id, reason: "both boards solved with the same guess")
        }
        let score = solved.reduce(0, +) + (2 - solved.count) * (allowed + 1)
        try requireBounds(game.id, "score", score, game.bounds.scores)
        return ParsedShare(
            game: game.id, puzzle: header.puzzle, score: score, maxScore: game.bounds.maxScore,
            completed: solved.count == 2, details: .boards(BoardResults(boards: header.boards, reportedScore: nil)))
    }
}
