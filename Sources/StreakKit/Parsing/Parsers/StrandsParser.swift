/// Strands: `Strands #123`, the theme in quotation marks, then rows of 🔵 (theme word), 🟡 (the
/// spangram) and 💡 (a hint used).
struct StrandsParser: ShareParser {
    let game = Game.strands
    let headerInitials = "s"

    private func puzzle(_ line: ShareLine) -> Int? {
        var scan = Scan(content: line)
        guard scan.literal("strands"), let number = scan.puzzleNumber(hashRequired: true), scan.restIsDecoration() else {
            return nil
        }
        return number
    }

    func isHeader(_ line: ShareLine) -> Bool { puzzle(line) != nil }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, let puzzle = puzzle(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a Strands header")
        }
        try requireBounds(game.id, "puzzle number", puzzle, game.bounds.puzzles)
        var body = lines.dropFirst()
        var theme = ""
        if let line = body.first, let quoted = Self.quoted(line) {
            theme = quoted
            body = body.dropFirst()
        }
        var hints = 0
        var words = 0
        var spangram: Int?
        var rows = 0
        for line in body {
            var row = (hints: 0, words: 0, spangram: nil as Int?)
            var other = false
            for scalar in line.scalars {
                switch scalar.value {
                case 0x1F4A1: row.hints += 1
                case 0x1F535: row.words += 1
                case 0x1F7E1:
                    guard spangram == nil, row.spangram == nil else {
                        throw .malformed(game: game.id, reason: "more than one spangram")
                    }
                    row.spangram = words + row.words + 1
                case 0xFE0F, 0x20, 0x09: continue
                default: other = true
                }
            }
            if other || (row.hints == 0 && row.words == 0 && row.spangram == nil) { break }
            hints += row.hints
            if let position = row.spangram { spangram = position }
            words += row.words
            rows += 1
        }
        guard rows > 0 else { throw .malformed(game: game.id, reason: "no rows of found words") }
        guard let spangram else { throw .malformed(game: game.id, reason: "no spangram (🟡)") }
        try requireBounds(game.id, "theme words", words, 2...14)
        try requireBounds(game.id, "hints", hints, game.bounds.scores)
        return ParsedShare(
            game: game.id, puzzle: puzzle, score: hints, maxScore: game.bounds.maxScore, completed: true,
            details: .strands(StrandsDetails(theme: theme, hints: hints, themeWords: words, spangramPosition: spangram)))
    }

    /// The text between a line's opening and closing quotation marks (“ ” " ‘ ’).
    static func quoted(_ line: ShareLine) -> String? {
        let scalars = line.scalars
        guard let open = scalars.first, let close = scalars.last, scalars.count >= 2,
            [0x201C, 0x22, 0x2018, 0x201E].contains(open.value), [0x201D, 0x22, 0x2019, 0x201C].contains(close.value)
        else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars.dropFirst().dropLast())
        return text
    }
}
