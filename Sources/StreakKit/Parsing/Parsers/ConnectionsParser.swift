/// Connections: `Connections`, `Puzzle #512`, then one row of four 🟨🟩🟦🟪 per guess. Four of one
/// colour is a solved group; any other row is a mistake; four mistakes end the game unsolved.
struct ConnectionsParser: ShareParser {
    let game = Game.connections
    let headerInitials = "c"

    func isHeader(_ line: ShareLine) -> Bool {
        var scan = Scan(content: line)
        return scan.literal("connections") && scan.restIsDecoration()
    }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, isHeader(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a Connections header")
        }
        let body = lines.dropFirst()
        guard let second = body.first else { throw .malformed(game: game.id, reason: "no puzzle line") }
        var scan = Scan(content: second)
        guard scan.literal("puzzle"), let puzzle = scan.puzzleNumber(hashRequired: true), scan.restIsDecoration() else {
            throw .malformed(game: game.id, reason: "no `Puzzle #N` line after the header")
        }
        try requireBounds(game.id, "puzzle number", puzzle, game.bounds.puzzles)
        var rows: [[ConnectionsColor]] = []
        for line in body.dropFirst() {
            guard let row = try colourRow(line) else { break }
            rows.append(row)
        }
        var solved: [ConnectionsColor] = []
        var mistakes = 0
        for (i, row) in rows.enumerated() {
            if solved.count == 4 || mistakes == 4 {
                throw .malformed(game: game.id, reason: "row \(i + 1) comes after the game ended")
            }
            if let reused = row.first(where: solved.contains) {
                throw .malformed(game: game.id, reason: "row \(i + 1) uses the \(reused.rawValue) group after it was solved")
            }
            if row.allSatisfy({ $0 == row[0] }) {
                solved.append(row[0])
            } else {
                mistakes += 1
            }
        }
        guard solved.count == 4 || mistakes == 4 else {
            throw .malformed(game: game.id, reason: "the grid ends before the game does (\(solved.count) groups, \(mistakes) mistakes)")
        }
        try requireBounds(game.id, "guesses", rows.count, game.bounds.scores)
        return ParsedShare(
            game: game.id, puzzle: puzzle, score: rows.count, maxScore: game.bounds.maxScore, completed: solved.count == 4,
            details: .connections(ConnectionsDetails(rows: rows, solved: solved, mistakes: mistakes)))
    }

    /// Four colours; nil when the line holds text or no square (the grid ended); an error when it is
    /// only squares but not four of Connections's colours.
    private func colourRow(_ line: ShareLine) throws(StreakKitError) -> [ConnectionsColor]? {
        var row: [ConnectionsColor] = []
        var foreign = false
        for scalar in line.scalars {
            switch scalar.value {
            case 0x1F7E8: row.append(.yellow)
            case 0x1F7E9: row.append(.green)
            case 0x1F7E6: row.append(.blue)
            case 0x1F7EA: row.append(.purple)
            case 0x1F7E5...0x1F7EB, 0x2B1B, 0x2B1C: foreign = true
            case 0xFE0F, 0x20, 0x09: continue
            default: return nil
            }
        }
        if row.isEmpty && !foreign { return nil }
        guard !foreign else { throw .malformed(game: game.id, reason: "a row has squares Connections does not use") }
        guard row.count == 4 else { throw .malformed(game: game.id, reason: "a row has \(row.count) squares, not 4") }
        return row
    }
}
