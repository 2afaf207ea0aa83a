/// Spelling Bee: a `Spelling Bee` header (`NYT Spelling Bee May 19, 2026` with a date), then
/// `Score: N` (required), `Words: N` / `Words found: N`, `Pangrams: N`, `Rank: Genius` lines in any
/// order. The NYT app's share has changed several times; docs/streaksync-device.md lists what is assumed.
struct SpellingBeeParser: ShareParser {
    let game = Game.spellingBee
    let headerInitials = "ns"

    /// The cursor after the header's words, or nil.
    private func afterHeader(_ line: ShareLine) -> Scan? {
        var scan = Scan(content: line)
        if scan.literal("nyt") || scan.literal("new york times") { scan.skipSpaces() }
        _ = scan.literal("'s")
        scan.skipSpaces()
        guard scan.literal("spelling"), scan.word("bee"), scan.atWordBoundary else { return nil }
        return scan
    }

    func isHeader(_ line: ShareLine) -> Bool {
        guard var scan = afterHeader(line) else { return false }
        if scan.date() != nil || scan.restIsDecoration() { return scan.restIsDecoration() }
        scan.skipSpaces()
        return scan.scalar(0x2D) || scan.scalar(0x3A) || scan.scalar(0x2014)
    }

    func parse(_ lines: ArraySlice<ShareLine>) throws(StreakKitError) -> ParsedShare {
        guard let first = lines.first, var header = afterHeader(first), isHeader(first) else {
            throw .malformed(game: game.id, reason: "the first line is not a Spelling Bee header")
        }
        let day = header.date()
        var score: Int?
        var words: Int?
        var pangrams: Int?
        var rank: SpellingBeeRank?
        for var scan in [header] + bodyScans(lines) {
            scan.skipDecoration()
            _ = scan.scalar(0x2D) || scan.scalar(0x2014) || scan.scalar(0x3A)
            scan.skipSpaces()
            if scan.literal("score") || scan.literal("points") {
                score = try value(&scan, "score")
            } else if scan.literal("words found") || scan.literal("words") {
                words = try value(&scan, "words")
            } else if scan.literal("pangrams") || scan.literal("pangram") {
                pangrams = try value(&scan, "pangrams")
            } else if scan.literal("rank") {
                guard scan.scalar(0x3A) else { continue }
                scan.skipSpaces()
                guard let found = Self.ranksLongestFirst.first(where: { Self.matches(&scan, $0.rawValue) }) else {
                    throw .malformed(game: game.id, reason: "unknown rank")
                }
                rank = found
            } else if scan.literal("i found") {
                scan.skipSpaces()
                guard let count = scan.number(), scan.word("words") || scan.word("word") else { continue }
                words = count
            }
        }
        guard let score else { throw .malformed(game: game.id, reason: "no `Score:` line") }
        try requireBounds(game.id, "score", score, game.bounds.scores)
        if let words {
            // Every word scores at least one point.
            try requireBounds(game.id, "words", words, 0...min(score, 500))
        }
        if let pangrams { try requireBounds(game.id, "pangrams", pangrams, 0...min(words ?? 20, 20)) }
        return ParsedShare(
            game: game.id, puzzle: day?.yyyymmdd, score: score, maxScore: game.bounds.maxScore, completed: score > 0,
            details: .spellingBee(SpellingBeeDetails(rank: rank, words: words, pangrams: pangrams)))
    }

    /// Ranks with longer names first, so `Good Start` is not read as `Good`.
    private static let ranksLongestFirst = SpellingBeeRank.allCases.sorted { $0.rawValue.count > $1.rawValue.count }

    /// `: N` after a key.
    private func value(_ scan: inout Scan, _ field: String) throws(StreakKitError) -> Int {
        guard scan.scalar(0x3A) else { throw .malformed(game: game.id, reason: "no `:` after \(field)") }
        scan.skipSpaces()
        guard let number = scan.number() else { throw .malformed(game: game.id, reason: "no number after \(field)") }
        return number
    }

    /// Consumes `text` (a rank's name) without case.
    private static func matches(_ scan: inout Scan, _ text: String) -> Bool {
        var i = scan.index
        for unit in text.unicodeScalars {
            guard i < scan.scalars.endIndex else { return false }
            let v = scan.scalars[i].value
            guard v < 0x80, Scan.lower(UInt8(v)) == Scan.lower(UInt8(unit.value)) else { return false }
            i += 1
        }
        scan.index = i
        return scan.atWordBoundary
    }
}
