/// LinkedIn Pinpoint in both formats:
/// - `Pinpoint #542` then `🤔 📌 ⬜ ⬜ ⬜ (2/5)`: 🤔 a wrong guess, 📌 the right one, ⬜ a guess not needed;
/// - the older `Pinpoint #300 | 3 guesses` then `1️⃣ | 5% match` rows, the last at `100% match 📌`
///   when solved (rows may run together on one line).
struct PinpointParser: ShareParser {
    let game = Game.pinpoint
    let headerInitials = "p"
    private let allowed = 5

    private func afterHeader(_ line: ShareLine) -> (Scan, Int)? {
        var scan = Scan(content: line)
        guard scan.literal("pinpoint"), let puzzle = scan.puzzleNumber(hashRequired: true), scan.atWordBoundary else {
            return nil
        }
        return (scan, puzzle)
    }

    func isHeader(_ line: ShareLine) -> Bool {
        guard var (scan, _) = afterHeader(line) else { return false }
        if scan.restIsDecoration() { return true }
        scan.skipSpaces()
        guard scan.scalar(0x7C) else { return false }
        scan.skipSpaces()
        return scan.number() != nil && (scan.word("guesses") || scan.word("guess")) && scan.restIsDecoration()
    }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, isHeader(first), let header = afterHeader(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a Pinpoint header")
        }
        var scan = header.0
        let puzzle = header.1
        try requireBounds(game.id, "puzzle number", puzzle, game.bounds.puzzles)
        scan.skipSpaces()
        if scan.scalar(0x7C) {
            scan.skipSpaces()
            guard let guesses = scan.number() else { throw .malformed(game: game.id, reason: "no guess count") }
            try requireBounds(game.id, "guesses", guesses, 1...allowed)
            return try numbered(puzzle: puzzle, guesses: guesses, body: lines.dropFirst())
        }
        guard let row = lines.dropFirst().first else { throw .malformed(game: game.id, reason: "no guess row") }
        return try emoji(puzzle: puzzle, row: row)
    }

    private func emoji(puzzle: Int, row: ShareLine) throws(StreakKitError) -> ParsedShare {
        var scan = Scan(row)
        var marks: [UInt32] = []
        var stated: Int??
        while !scan.atEnd {
            scan.skipSpaces()
            guard let p = scan.peek else { break }
            switch p.value {
            case 0x1F914, 0x1F4CC, 0x2B1C, 0x2B1B:
                marks.append(p.value == 0x2B1B ? 0x2B1C : p.value)
                _ = scan.scalar(p.value)
            case 0x28:
                _ = scan.scalar(0x28)
                if scan.literal("x") { stated = .some(nil) } else if let n = scan.number() { stated = .some(n) }
                guard stated != nil, scan.scalar(0x2F), let total = scan.number(), total == allowed, scan.scalar(0x29) else {
                    throw .malformed(game: game.id, reason: "unreadable `(n/5)`")
                }
                guard scan.restIsDecoration() else { throw .malformed(game: game.id, reason: "text after `(n/5)`") }
                scan.index = scan.scalars.endIndex
            default:
                throw .malformed(game: game.id, reason: "the guess row holds something other than 🤔 📌 ⬜")
            }
        }
        guard marks.count == allowed else {
            throw .malformed(game: game.id, reason: "\(marks.count) guess marks, not \(allowed)")
        }
        let wrong = marks.prefix { $0 == 0x1F914 }.count
        let solved = wrong < allowed
        if solved {
            guard marks[wrong] == 0x1F4CC, marks[(wrong + 1)...].allSatisfy({ $0 == 0x2B1C }) else {
                throw .malformed(game: game.id, reason: "the guess marks are out of order")
            }
        }
        if let stated {
            guard stated == (solved ? wrong + 1 : nil) || (!solved && stated == allowed) else {
                throw .malformed(game: game.id, reason: "`(n/5)` does not match the marks")
            }
        }
        let guesses = solved ? wrong + 1 : allowed
        return ParsedShare(
            game: game.id, puzzle: puzzle, score: solved ? guesses : allowed + 1, maxScore: allowed, completed: solved,
            details: .pinpoint(PinpointDetails(guesses: guesses, matchPercentages: [], format: .emoji)))
    }

    private func numbered(puzzle: Int, guesses: Int, body: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        var percentages: [Int] = []
        var pinned = false
        lines: for line in body {
            var scan = Scan(line)
            var found = false
            while !scan.atEnd {
                scan.skipSpaces()
                if let n = scan.keycap() {
                    guard n == percentages.count + 1 else {
                        throw .malformed(game: game.id, reason: "guess \(n) is out of order")
                    }
                    scan.skipSpaces()
                    _ = scan.scalar(0x7C)
                    scan.skipSpaces()
                    guard let percent = scan.number(), scan.scalar(0x25), scan.word("match") else {
                        throw .malformed(game: game.id, reason: "unreadable match percentage for guess \(n)")
                    }
                    try requireBounds(game.id, "match percentage", percent, 0...100)
                    percentages.append(percent)
                    found = true
                } else if scan.scalar(0x1F4CC) {
                    pinned = true
                } else if found {
                    break  // the rest of the line (`🏅 I'm on a 145-day win streak!`) is not Pinpoint's.
                } else {
                    break lines
                }
            }
            if !found { break }
        }
        let solvedRows = percentages.indices.filter { percentages[$0] == 100 }
        let solved: Bool
        if percentages.isEmpty {
            // Without rows: fewer than five guesses can only mean the answer was found.
            guard guesses < allowed else {
                throw .malformed(game: game.id, reason: "five guesses and no rows: solved or not cannot be told")
            }
            solved = true
        } else {
            guard percentages.count == guesses else {
                throw .malformed(game: game.id, reason: "\(percentages.count) rows for \(guesses) guesses")
            }
            solved = solvedRows == [guesses - 1]
            guard solved || (solvedRows.isEmpty && guesses == allowed && !pinned) else {
                throw .malformed(game: game.id, reason: "the 100% match is not the last guess")
            }
        }
        return ParsedShare(
            game: game.id, puzzle: puzzle, score: solved ? guesses : allowed + 1, maxScore: allowed, completed: solved,
            details: .pinpoint(PinpointDetails(guesses: guesses, matchPercentages: percentages, format: .numbered)))
    }
}
