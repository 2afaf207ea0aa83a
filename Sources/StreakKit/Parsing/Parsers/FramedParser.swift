/// Framed: `Framed #1001` then `🎥 🟥 🟥 🟩 ⬛ ⬛ ⬛` (🟥 a wrong guess, 🟩 the right one, ⬛ a frame not
/// needed; six red squares when missed).
struct FramedParser: ShareParser {
    let game = Game.framed
    let headerInitials = "f"
    private let allowed = 6

    private func puzzle(_ line: ShareLine) -> Int? {
        var scan = Scan(content: line)
        guard scan.literal("framed"), let number = scan.puzzleNumber(hashRequired: true), scan.restIsDecoration() else {
            return nil
        }
        return number
    }

    func isHeader(_ line: ShareLine) -> Bool { puzzle(line) != nil }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, let puzzle = puzzle(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a Framed header")
        }
        try requireBounds(game.id, "puzzle number", puzzle, game.bounds.puzzles)
        guard let row = lines.dropFirst().first else { throw .malformed(game: game.id, reason: "no frame row") }
        var scan = Scan(row)
        guard scan.scalar(0x1F3A5) else { throw .malformed(game: game.id, reason: "the frame row does not start with 🎥") }
        var marks: [UInt32] = []
        while !scan.atEnd {
            scan.skipSpaces()
            guard let p = scan.peek else { break }
            guard [0x1F7E5, 0x1F7E9, 0x2B1B, 0x2B1C].contains(p.value) else {
                throw .malformed(game: game.id, reason: "the frame row holds something other than 🟥 🟩 ⬛")
            }
            marks.append(p.value == 0x2B1C ? 0x2B1B : p.value)
            _ = scan.scalar(p.value)
        }
        guard marks.count == allowed else { throw .malformed(game: game.id, reason: "\(marks.count) frames, not \(allowed)") }
        let wrong = marks.prefix { $0 == 0x1F7E5 }.count
        let solved = wrong < allowed
        if solved {
            guard marks[wrong] == 0x1F7E9, marks[(wrong + 1)...].allSatisfy({ $0 == 0x2B1B }) else {
                throw .malformed(game: game.id, reason: "the frames are out of order")
            }
        }
        return ParsedShare(
            game: game.id, puzzle: puzzle, score: solved ? wrong + 1 : allowed + 1, maxScore: allowed, completed: solved,
            details: .framed(FramedDetails(wrongGuesses: wrong)))
    }
}
