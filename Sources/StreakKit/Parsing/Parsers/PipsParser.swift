/// NYT Pips: `Pips #45 Easy 🟢` then `1:12`, or `Pips #120` then `Easy 🟢 0:22`. Each difficulty is
/// its own puzzle of the day (the result's variant).
struct PipsParser: ShareParser {
    let game = Game.pips
    let headerInitials = "p"

    private func afterHeader(_ line: ShareLine) -> (Scan, Int)? {
        var scan = Scan(content: line)
        guard scan.literal("pips"), let puzzle = scan.puzzleNumber(hashRequired: true), scan.atWordBoundary else { return nil }
        return (scan, puzzle)
    }

    func isHeader(_ line: ShareLine) -> Bool {
        guard var (scan, _) = afterHeader(line) else { return false }
        _ = scan.oneOf(["easy", "medium", "hard"])
        scan.skipDecoration()
        _ = scan.time()
        return scan.restIsDecoration()
    }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, isHeader(first), let (header, puzzle) = afterHeader(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a Pips header")
        }
        try requireBounds(game.id, "puzzle number", puzzle, game.bounds.puzzles)
        var difficulty: PipsDifficulty?
        var seconds: Int?
        lines: for var scan in [header] + bodyScans(lines).prefix(2) {
            while !scan.atEnd {
                scan.skipDecoration()
                if scan.atEnd { break }
                if difficulty == nil, let index = scan.oneOf(["easy", "medium", "hard"]) {
                    difficulty = PipsDifficulty.allCases[index]
                } else if seconds == nil, let time = scan.time() {
                    seconds = time
                } else {
                    break lines
                }
            }
            if difficulty != nil && seconds != nil { break }
        }
        guard let difficulty else { throw .malformed(game: game.id, reason: "no difficulty (Easy, Medium, Hard)") }
        guard let seconds else { throw .malformed(game: game.id, reason: "no time") }
        try requireBounds(game.id, "seconds", seconds, game.bounds.scores)
        return ParsedShare(
            game: game.id, puzzle: puzzle, variant: difficulty.rawValue, score: seconds, maxScore: game.bounds.maxScore,
            completed: true, details: .pips(PipsDetails(difficulty: difficulty, seconds: seconds)))
    }
}
