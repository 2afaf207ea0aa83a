/// NYT Mini Crossword, in the phrasings its shares have used:
/// - `I solved the 12/3/2025 New York Times Mini Crossword in 0:45!` (a weekday before the date, no
///   date, and a line break anywhere in the sentence are accepted);
/// - a `Mini Crossword` / `The Mini` / `NYT Mini Crossword` line (a date may follow) then
///   `Completed in 0:45` (or `Solved in`, `Time:`);
/// - with the game chosen by the player (`GameCatalog.parse(_:as:)`), a bare `Completed in 0:45`.
struct MiniCrosswordParser: ShareParser {
    let game = Game.miniCrossword
    let headerInitials = "itnm"

    private static let weekdays: [StaticString] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    /// After `I solved the`, an optional weekday and date: whether the sentence goes on to name the Mini.
    private func sentenceStart(_ line: ShareLine) -> Bool {
        var scan = Scan(content: line)
        guard scan.literal("i solved the"), scan.atWordBoundary else { return false }
        _ = scan.oneOf(Self.weekdays)
        _ = scan.scalar(0x2C)
        _ = scan.date()
        scan.skipSpaces()
        return scan.atEnd || scan.literal("new york times") || scan.literal("nyt") || scan.literal("mini")
    }

    /// A `Mini Crossword` title line and the date on it.
    private func title(_ line: ShareLine) -> (isTitle: Bool, day: LocalDay?) {
        var scan = Scan(content: line)
        if scan.literal("the") || scan.literal("nyt") || scan.literal("new york times") { scan.skipSpaces() }
        guard scan.literal("mini"), scan.atWordBoundary else { return (false, nil) }
        _ = scan.word("crossword")
        _ = scan.scalar(0x2C) || scan.word("-")
        let day = scan.date()
        return scan.restIsDecoration() ? (true, day) : (false, nil)
    }

    func isHeader(_ line: ShareLine) -> Bool { sentenceStart(line) || title(line).isTitle }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first else { throw .malformed(game: game.id, reason: "empty") }
        if sentenceStart(first) { return try parseSentence(lines) }
        let title = title(first)
        guard title.isTitle else { throw .malformed(game: game.id, reason: "the first line is not a Mini Crossword header") }
        guard let seconds = completedTime(lines.dropFirst()) else {
            throw .malformed(game: game.id, reason: "no `Completed in m:ss` line")
        }
        return try share(day: title.day, seconds: seconds)
    }

    func parseWithoutHeader(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let seconds = completedTime(lines) else {
            throw .malformed(game: game.id, reason: "no `Completed in m:ss` line")
        }
        return try share(day: nil, seconds: seconds)
    }

    /// The sentence, joined across at most three lines.
    private func parseSentence(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        var joined: [Unicode.Scalar] = []
        for line in lines.prefix(3) {
            if !joined.isEmpty { joined.append(" ") }
            joined.append(contentsOf: line.scalars)
        }
        var scan = Scan(content: ShareLine(joined[...]))
        guard scan.literal("i solved the") else { throw .malformed(game: game.id, reason: "no `I solved the`") }
        _ = scan.oneOf(Self.weekdays)
        _ = scan.scalar(0x2C)
        let day = scan.date()
        scan.skipSpaces()
        _ = scan.literal("new york times") || scan.literal("nyt")
        guard scan.word("mini") else { throw .malformed(game: game.id, reason: "the sentence does not name the Mini") }
        _ = scan.word("crossword")
        guard scan.word("in") else { throw .malformed(game: game.id, reason: "no time in the sentence") }
        scan.skipSpaces()
        guard let seconds = scan.time() else { throw .malformed(game: game.id, reason: "unreadable time") }
        return try share(day: day, seconds: seconds)
    }

    /// The time of the first `Completed in`, `Solved in` or `Time:` line.
    private func completedTime(_ lines: ArraySlice<ShareLine>) -> Int? {
        for line in lines {
            var scan = Scan(content: line)
            guard scan.literal("completed in") || scan.literal("solved in") || (scan.literal("time") && scan.scalar(0x3A)) else {
                continue
            }
            scan.skipSpaces()
            guard let seconds = scan.time() else { return nil }
            _ = scan.scalar(0x21)
            return scan.restIsDecoration() ? seconds : nil
        }
        return nil
    }

    private func share(day: LocalDay?, seconds: Int) throws(StreakKitError) -> ParsedShare {
        try requireBounds(game.id, "seconds", seconds, game.bounds.scores)
        if let day { try requireBounds(game.id, "date", day.yyyymmdd, game.bounds.puzzles) }
        return ParsedShare(
            game: game.id, puzzle: day?.yyyymmdd, score: seconds, maxScore: game.bounds.maxScore, completed: true,
            details: .timed(TimedDetails(seconds: seconds, flawless: false)))
    }
}
