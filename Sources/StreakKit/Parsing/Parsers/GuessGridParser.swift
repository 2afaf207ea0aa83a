/// Wordle (`Wordle 1,492 3/6*` then rows of ⬛⬜🟨🟩, or 🟧🟦 in high contrast) and Nerdle
/// (`nerdlegame 728 3/6` then rows of eight ⬛🟪🟩).
struct GuessGridParser: ShareParser {
    let game: Game
    let headerWord: StaticString
    let rowWidth: Int
    let allowsHardMode: Bool
    var headerInitials: String { game.id == .wordle ? "w" : "n" }

    static let wordle = GuessGridParser(game: .wordle, headerWord: "wordle", rowWidth: 5, allowsHardMode: true)
    static let nerdle = GuessGridParser(game: .nerdle, headerWord: "nerdlegame", rowWidth: 8, allowsHardMode: false)

    private struct Header {
        let puzzle: Int
        /// Guesses, or nil for `X`.
        let guesses: Int?
        let hardMode: Bool
    }

    private var allowed: Int { game.bounds.maxScore }

    private func header(_ line: ShareLine) -> Header? {
        var scan = Scan(content: line)
        guard scan.literal(headerWord), let p = scan.peek, ShareLine.isBlank(p) else { return nil }
        scan.skipSpaces()
        guard let puzzle = scan.number(), let p2 = scan.peek, ShareLine.isBlank(p2) else { return nil }
        scan.skipSpaces()
        var guesses: Int?
        if scan.literal("x") {
            guesses = nil
        } else if let p3 = scan.peek, let digit = Scan.digit(p3) {
            scan.index += 1
            guesses = digit
        } else {
            return nil
        }
        guard scan.scalar(0x2F), let total = scan.number(), total == allowed else { return nil }
        let hardMode = allowsHardMode && scan.scalar(0x2A)
        guard scan.restIsDecoration() else { return nil }
        return Header(puzzle: puzzle, guesses: guesses, hardMode: hardMode)
    }

    func isHeader(_ line: ShareLine) -> Bool { header(line) != nil }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, let header = header(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a \(game.name) header")
        }
        try requireBounds(game.id, "puzzle number", header.puzzle, game.bounds.puzzles)
        if let guesses = header.guesses { try requireBounds(game.id, "guesses", guesses, 1...allowed) }
        var rows: [[Tile]] = []
        for line in lines.dropFirst() {
            guard let row = try tileRow(line) else { break }
            rows.append(row)
        }
        let completed = header.guesses != nil
        if !rows.isEmpty {
            let expected = header.guesses ?? allowed
            guard rows.count == expected else {
                throw .malformed(game: game.id, reason: "the header says \(header.guesses.map(String.init) ?? "X")/\(allowed) but the grid has \(rows.count) rows")
            }
            let solvedRows = rows.indices.filter { rows[$0].allSatisfy { $0 == .correct } }
            if completed ? solvedRows != [rows.count - 1] : !solvedRows.isEmpty {
                throw .malformed(game: game.id, reason: "the grid's solved row does not match the score")
            }
        }
        return ParsedShare(
            game: game.id, puzzle: header.puzzle, score: header.guesses ?? allowed + 1, maxScore: allowed,
            completed: completed, details: .guessGrid(GuessGrid(hardMode: header.hardMode, rows: rows)))
    }

    /// The line as a row of tiles; nil when it holds text or no square (the grid ended); an error
    /// when it is only squares but not a row of this game (another game's colours, a wrong width).
    private func tileRow(_ line: ShareLine) throws(StreakKitError) -> [Tile]? {
        var row: [Tile] = []
        var foreign = false
        for scalar in line.scalars {
            switch scalar.value {
            case 0x1F7E9: row.append(.correct)
            case 0x1F7E7 where game.id == .wordle: row.append(.correct)
            case 0x1F7E8 where game.id == .wordle, 0x1F7E6 where game.id == .wordle: row.append(.present)
            case 0x1F7EA where game.id == .nerdle: row.append(.present)
            case 0x2B1B, 0x2B1C: row.append(.absent)
            case 0x1F7E5...0x1F7EB: foreign = true
            case 0xFE0F, 0x20, 0x09: continue
            default: return nil
            }
        }
        if row.isEmpty && !foreign { return nil }
        guard !foreign else { throw .malformed(game: game.id, reason: "a grid row has squares \(game.name) does not use") }
        guard row.count == rowWidth else {
            throw .malformed(game: game.id, reason: "a grid row has \(row.count) tiles, not \(rowWidth)")
        }
        return row
    }
}
