@testable import StreakKit
import Testing

/// Random and mutated texts never crash a parser and never yield a result outside its game's bounds.
/// Each parser is called directly (not only through the catalog, which re-checks bounds), on every
/// line it takes for a header and headerless. Seeded, so a failure reproduces.
@Suite struct ParserFuzzTests {
    let catalog = Fixtures.catalog
    static let seeds = ShareCorpus.all.map(\.text) + Game.all.map(\.exampleShare)
    static let tokens: [String] = [
        "Wordle ", "nerdlegame ", "Daily Quordle ", "Weekly Quordle Challenge ", "Daily Octordle #", "Daily Dordle #",
        "Connections", "Puzzle #", "Strands #", "Spelling Bee", "Score: ", "Words: ", "Pangrams: ", "Rank: Genius",
        "I solved the ", "New York Times Mini Crossword in ", "Mini Crossword", "Completed in ", "Pips #", "Easy ", "Hard ",
        "Queens #", "Tango #", "Crossclimb #", "Zip #", "With ", " backtracks", "Pinpoint #", " guesses", "% match",
        "Mini Sudoku #", "Framed #", "🎥 ", " | ", " and flawless", "/6", "/7", "/5", "X", "*", "&", "(", ")", ":", ",", ".",
        "#", "“", "”", "🟩", "🟨", "⬛", "⬜", "🟦", "🟪", "🟧", "🟥", "🔵", "🟡", "💡", "🤔", "📌", "🔟", "🕚", "🕛", "🕐",
        "1️⃣", "5\u{20E3}", "9️⃣", "0️⃣", "\n", "\r\n", "\r", " ", "\u{200B}", "\u{FE0F}", "\u{2028}", "0", "1", "3", "6", "9",
        "12", "1,492", "99999999999", "59", ":75", "5/19/2026", "May 19, 2026", "0:45", "1:02:03", "100",
    ]

    /// Runs every parser on `text` and reports any result outside its game's bounds.
    func check(_ text: String, headerless: any ShareParser) {
        guard let share = try? ShareText(text) else { return }
        for parser in catalog.parsers {
            for (index, line) in share.lines.enumerated() where parser.isHeader(line) {
                if let result = try? parser.parse(share.lines[index...]), !parser.game.admits(result) {
                    Issue.record("\(parser.game.id) gave \(result) for \(text.debugDescription)")
                }
            }
        }
        if let result = try? headerless.parseWithoutHeader(share.lines[...]), !headerless.game.admits(result) {
            Issue.record("\(headerless.game.id) (headerless) gave \(result) for \(text.debugDescription)")
        }
        if let result = try? catalog.parse(text), catalog.game(result.game)?.admits(result) != true {
            Issue.record("the catalog gave \(result) for \(text.debugDescription)")
        }
    }

    @Test func randomTokenSoup() {
        var random = SeededGenerator(seed: 0x5EED_0001)
        for _ in 0..<8_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...24, using: &random) {
                if Int.random(in: 0..<10, using: &random) == 0 {
                    text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0x20...0x2FFF, using: &random)) ?? "?")
                } else {
                    text += Self.tokens.randomElement(using: &random)!
                }
            }
            check(text, headerless: catalog.parsers.randomElement(using: &random)!)
        }
    }

    @Test func mutatedRealShares() {
        var random = SeededGenerator(seed: 0x5EED_0002)
        var accepted = 0
        for iteration in 0..<12_000 {
            var text = Self.seeds[iteration % Self.seeds.count]
            for _ in 0..<Int.random(in: 1...3, using: &random) { text = mutate(text, using: &random) }
            if (try? catalog.parse(text)) != nil { accepted += 1 }
            check(text, headerless: catalog.parsers.randomElement(using: &random)!)
        }
        // Many mutations (a changed digit, doubled blank lines, chat around the share) keep a share valid.
        #expect(accepted > 1_000)
    }

    func mutate(_ text: String, using random: inout SeededGenerator) -> String {
        var scalars = Array(text.unicodeScalars)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch Int.random(in: 0..<10, using: &random) {
        case 0 where !scalars.isEmpty:  // delete a run of scalars
            let start = Int.random(in: 0..<scalars.count, using: &random)
            scalars.removeSubrange(start..<min(scalars.count, start + Int.random(in: 1...4, using: &random)))
        case 1:  // insert a token
            let at = Int.random(in: 0...scalars.count, using: &random)
            scalars.insert(contentsOf: Self.tokens.randomElement(using: &random)!.unicodeScalars, at: at)
        case 2:  // change a digit
            if let at = scalars.indices.filter({ ("0"..."9").contains(scalars[$0]) }).randomElement(using: &random) {
                scalars[at] = Unicode.Scalar(UInt8.random(in: 0x30...0x39, using: &random))
            }
        case 3 where !scalars.isEmpty:  // replace a scalar with an emoji or a random one
            let at = Int.random(in: 0..<scalars.count, using: &random)
            scalars[at] = Self.tokens.randomElement(using: &random)!.unicodeScalars.first ?? "x"
        case 4 where lines.count > 1:  // drop a line
            lines.remove(at: Int.random(in: 0..<lines.count, using: &random))
            return lines.joined(separator: "\n")
        case 5:  // duplicate a line
            let at = Int.random(in: 0..<lines.count, using: &random)
            lines.insert(lines[at], at: at)
            return lines.joined(separator: "\n")
        case 6 where lines.count > 1:  // swap two lines
            lines.swapAt(Int.random(in: 0..<lines.count, using: &random), Int.random(in: 0..<lines.count, using: &random))
            return lines.joined(separator: "\n")
        case 7:  // another line-break style and blank lines
            return lines.joined(separator: ["\r\n", "\n\n", "\r", "\u{2028}", " \n "].randomElement(using: &random)!)
        case 8:  // chat around it
            return "look at this 😂\n" + text + "\nyour turn!"
        default:  // truncate
            scalars = Array(scalars.prefix(Int.random(in: 0...scalars.count, using: &random)))
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}
