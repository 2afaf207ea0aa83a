@testable import StreakKit
import Testing

/// Real share texts (formats collected from the games and public posts), each with what it must
/// parse to; the parser tests, the fuzz test's seeds and the benchmark's corpus shape come from here.
struct ShareCase: Sendable, CustomTestStringConvertible {
    let text: String
    let game: GameID
    let puzzle: Int?
    let score: Int
    let completed: Bool
    var testDescription: String { "\(game.rawValue): \(text.prefix(40).replacingOccurrences(of: "\n", with: "⏎"))" }
}

enum ShareCorpus {
    static let wordle: [ShareCase] = [
        ShareCase(text: "Wordle 1,492 3/6*\n\n⬛🟨⬛⬛⬛\n🟩⬛🟩🟨⬛\n🟩🟩🟩🟩🟩", game: .wordle, puzzle: 1492, score: 3, completed: true),
        ShareCase(text: "Wordle 1,406 4/6*\n\n⬛⬛⬛⬛🟩\n⬛⬛⬛🟨🟩\n⬛🟨⬛⬛🟩\n🟩🟩🟩🟩🟩", game: .wordle, puzzle: 1406, score: 4, completed: true),
        ShareCase(text: "Wordle 1,492 X/6\n\n⬜⬜🟨⬜⬜\n⬜🟩⬜⬜⬜\n⬜🟩🟩⬜⬜\n⬜🟩🟩🟩⬜\n🟨🟩🟩🟩⬜\n⬜🟩🟩🟩🟩", game: .wordle, puzzle: 1492, score: 7, completed: false),
        ShareCase(text: "Wordle 215 1/6\n\n🟩🟩🟩🟩🟩", game: .wordle, puzzle: 215, score: 1, completed: true),
        ShareCase(text: "Wordle 1.063 2/6\n\n🟦🟧⬛⬛🟦\n🟧🟧🟧🟧🟧", game: .wordle, puzzle: 1063, score: 2, completed: true),
        ShareCase(text: "Wordle 1,063 4/6*", game: .wordle, puzzle: 1063, score: 4, completed: true),
        ShareCase(text: "got it!!\r\n\r\nWordle 1,292 3/6\r\n\r\n⬛🟨⬛⬛⬛\r\n🟩⬛🟩🟨⬛\r\n🟩🟩🟩🟩🟩\r\n\r\nyour turn", game: .wordle, puzzle: 1292, score: 3, completed: true),
    ]
    static let nerdle: [ShareCase] = [
        ShareCase(text: "nerdlegame 728 3/6\n\n🟪⬛🟪🟪⬛🟪⬛⬛\n🟪🟩🟩🟩⬛🟩⬛🟪\n🟩🟩🟩🟩🟩🟩🟩🟩", game: .nerdle, puzzle: 728, score: 3, completed: true),
        ShareCase(text: "nerdlegame 728 3/6", game: .nerdle, puzzle: 728, score: 3, completed: true),
        ShareCase(text: "nerdlegame 1,021 X/6\n\n⬛⬛🟪⬛⬛🟪⬛⬛\n⬛🟩🟪⬛⬛🟩⬛⬛\n🟩🟩⬛⬛🟪🟩⬛⬛\n🟩🟩🟩⬛🟩🟩⬛🟪\n🟩🟩🟩🟪🟩🟩🟪⬛\n🟩🟩🟩🟩🟩🟩⬛⬛", game: .nerdle, puzzle: 1021, score: 7, completed: false),
    ]
    static let quordle: [ShareCase] = [
        ShareCase(text: "Daily Quordle 1012\n6️⃣5️⃣\n🟥8️⃣\nm-w.com/games/quordle/", game: .quordle, puzzle: 1012, score: 29, completed: false),
        ShareCase(text: "🙂 Daily Quordle 1576\n2️⃣8️⃣\n7️⃣9️⃣\nm-w.com/games/quordle/", game: .quordle, puzzle: 1576, score: 26, completed: true),
        ShareCase(text: "🙂Daily Quordle 1190\n🟥8️⃣\n4️⃣5️⃣\nm-w.com/games/quordle/", game: .quordle, puzzle: 1190, score: 27, completed: false),
        ShareCase(text: "Daily Quordle 1,074\n3️⃣ 5️⃣\n4️⃣ 6️⃣\nm-w.com/games/quordle/\n⬜🟨⬜⬜⬜ ⬜⬜⬜⬜🟩", game: .quordle, puzzle: 1074, score: 18, completed: true),
        ShareCase(text: "Weekly Quordle Challenge 143\n7️⃣4️⃣\n5️⃣6️⃣\nm-w.com/games/quordle/", game: .quordleWeekly, puzzle: 143, score: 22, completed: true),
        ShareCase(text: "Weekly Quordle Challenge 150\n🟥🟥\n9️⃣8️⃣\nm-w.com/games/quordle/", game: .quordleWeekly, puzzle: 150, score: 37, completed: false),
    ]
    static let octordle: [ShareCase] = [
        ShareCase(text: "Daily Octordle #845\n8️⃣4️⃣\n5️⃣🔟\n9️⃣6️⃣\n🕛7️⃣\nScore: 61", game: .octordle, puzzle: 845, score: 61, completed: true),
        ShareCase(text: "Daily Octordle #1012\n8️⃣🔟\n🕐4️⃣\n5️⃣🕛\n🕚6️⃣\nScore: 69\noctordle.com", game: .octordle, puzzle: 1012, score: 69, completed: true),
        ShareCase(text: "Daily Octordle #1013\n8️⃣🔟\n🟥4️⃣\n5️⃣🕛\n🕚6️⃣\nScore: 70", game: .octordle, puzzle: 1013, score: 70, completed: false),
        ShareCase(text: "Daily Octordle #83\n4️⃣🕛\n🔟🕚\n5️⃣6️⃣\n8️⃣🕐\noctordle.com", game: .octordle, puzzle: 83, score: 69, completed: true),
    ]
    static let dordle: [ShareCase] = [
        ShareCase(text: Game.dordle.exampleShare, game: .dordle, puzzle: 999, score: 10, completed: true),
        ShareCase(text: "Daily Dordle #0412 X&7/7\n⬜⬜🟨⬜⬜ ⬜⬜⬜🟩⬜\nzaratustra.itch.io/dordle", game: .dordle, puzzle: 412, score: 15, completed: false),
        ShareCase(text: "Daily Dordle #1001 3&5/7", game: .dordle, puzzle: 1001, score: 8, completed: true),
    ]
    static let connections: [ShareCase] = [
        ShareCase(text: "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", game: .connections, puzzle: 512, score: 5, completed: true),
        ShareCase(text: "Connections\nPuzzle #603\n🟩🟩🟩🟩\n🟨🟨🟨🟨\n🟪🟪🟪🟪\n🟦🟦🟦🟦", game: .connections, puzzle: 603, score: 4, completed: true),
        ShareCase(text: "Connections \nPuzzle #1,001\n🟨🟩🟨🟨\n🟨🟨🟨🟨\n🟦🟪🟦🟦\n🟩🟪🟦🟪\n🟦🟪🟦🟦", game: .connections, puzzle: 1001, score: 5, completed: false),
        ShareCase(text: "so close today\n\nConnections\r\nPuzzle #687\r\n🟩🟦🟩🟩\r\n🟪🟪🟪🟪\r\n🟦🟦🟦🟦\r\n🟨🟨🟨🟨\r\n🟩🟩🟩🟩\r\n\r\nbeat that", game: .connections, puzzle: 687, score: 5, completed: true),
    ]
    static let strands: [ShareCase] = [
        ShareCase(text: "Strands #123\n“Theme words”\n💡🔵🔵🟡\n🔵🔵", game: .strands, puzzle: 123, score: 1, completed: true),
        ShareCase(text: "Strands #350\n“Knot your average puzzle”\n🔵🔵🔵🟡\n🔵🔵🔵", game: .strands, puzzle: 350, score: 0, completed: true),
        ShareCase(text: "Strands #580\n\"Bring it home\"\n💡🔵🔵💡\n🔵🟡🔵🔵\n🔵", game: .strands, puzzle: 580, score: 2, completed: true),
    ]
    static let spellingBee: [ShareCase] = [
        ShareCase(text: "Spelling Bee\nScore: 150\nWords: 25\nRank: Genius", game: .spellingBee, puzzle: nil, score: 150, completed: true),
        ShareCase(text: "NYT Spelling Bee May 19, 2026\nRank: Amazing\nScore: 98\nWords found: 31\nPangrams: 1", game: .spellingBee, puzzle: 20_260_519, score: 98, completed: true),
        ShareCase(text: "Spelling Bee 5/19/2026\nRank: Good Start\nScore: 12", game: .spellingBee, puzzle: 20_260_519, score: 12, completed: true),
    ]
    static let mini: [ShareCase] = [
        ShareCase(text: "I solved the 12/3/2025 New York Times Mini Crossword in 0:45!", game: .miniCrossword, puzzle: 20_251_203, score: 45, completed: true),
        ShareCase(text: "I solved the 4/28/2025 New York Times\nMini Crossword in 0:22!", game: .miniCrossword, puzzle: 20_250_428, score: 22, completed: true),
        ShareCase(text: "I solved the Saturday 2/15/2025 New York Times Mini Crossword in 1:13!", game: .miniCrossword, puzzle: 20_250_215, score: 73, completed: true),
        ShareCase(text: "Mini Crossword\nCompleted in 2:30", game: .miniCrossword, puzzle: nil, score: 150, completed: true),
        ShareCase(text: "The Mini Crossword 12/3/2025\nCompleted in 0:45", game: .miniCrossword, puzzle: 20_251_203, score: 45, completed: true),
    ]
    static let pips: [ShareCase] = [
        ShareCase(text: "Pips #45 Easy 🟢\n1:12", game: .pips, puzzle: 45, score: 72, completed: true),
        ShareCase(text: "Pips #120\nEasy 🟢 0:22", game: .pips, puzzle: 120, score: 22, completed: true),
        ShareCase(text: "Pips #46 Hard\n2:59", game: .pips, puzzle: 46, score: 179, completed: true),
        ShareCase(text: "Pips #46 Medium 🟡\n1:03:15", game: .pips, puzzle: 46, score: 3_795, completed: true),
    ]
    static let linkedIn: [ShareCase] = [
        ShareCase(text: "Queens #123\n2:45 👑\nlnkd.in/queens.", game: .queens, puzzle: 123, score: 165, completed: true),
        ShareCase(text: "Queens #386 | 0:11 First 👑s: 🟨 🟩 ⬜\nlnkd.in/queens.", game: .queens, puzzle: 386, score: 11, completed: true),
        ShareCase(text: "Tango #120\n1:05 🌗\nlnkd.in/tango.", game: .tango, puzzle: 120, score: 65, completed: true),
        ShareCase(text: "Tango #293 | 0:47 and flawless\nlnkd.in/tango.", game: .tango, puzzle: 293, score: 47, completed: true),
        ShareCase(text: "Crossclimb #522\n2:08 🪜\n🏅 I'm on a 94-day win streak!\nlnkd.in/crossclimb.", game: .crossclimb, puzzle: 522, score: 128, completed: true),
        ShareCase(text: "Crossclimb #398 | 0:40 and flawless\nFill order: 1️⃣ 2️⃣ 3️⃣ 4️⃣ 5️⃣ ⬆️ ⬇️ 🪜\nlnkd.in/crossclimb.", game: .crossclimb, puzzle: 398, score: 40, completed: true),
        ShareCase(text: "Zip #150 | 0:23 🏁\nWith 2 backtracks 🛑\nlnkd.in/zip.", game: .zip, puzzle: 150, score: 23, completed: true),
        ShareCase(text: "Zip #201\n0:23 🏁\nWith 1 backtrack 🛑\nlnkd.in/zip.", game: .zip, puzzle: 201, score: 23, completed: true),
        ShareCase(text: "Zip #335 | 0:09 and flawless 🏁 With no backtracks 🟢 lnkd.in/zip.", game: .zip, puzzle: 335, score: 9, completed: true),
        ShareCase(text: "Mini Sudoku #142 | 0:39 and flawless ✏️\n🏅 I'm smarter than 95% of CEOs today!\nlnkd.in/minisudoku.", game: .miniSudoku, puzzle: 142, score: 39, completed: true),
        ShareCase(text: "Mini Sudoku #45\n1:10 ✏️\nlnkd.in/minisudoku.", game: .miniSudoku, puzzle: 45, score: 70, completed: true),
    ]
    static let pinpoint: [ShareCase] = [
        ShareCase(text: "Pinpoint #542\n🤔 📌 ⬜ ⬜ ⬜ (2/5)\n🏅 I'm in the Top 25% of my connections today!\nlnkd.in/pinpoint.", game: .pinpoint, puzzle: 542, score: 2, completed: true),
        ShareCase(text: "Pinpoint #560\n🤔 🤔 🤔 🤔 🤔\nlnkd.in/pinpoint.", game: .pinpoint, puzzle: 560, score: 6, completed: false),
        ShareCase(text: "Pinpoint #300 | 3 guesses\n1️⃣ | 12% match\n2️⃣ | 47% match\n3️⃣ | 100% match 📌\nlnkd.in/pinpoint.", game: .pinpoint, puzzle: 300, score: 3, completed: true),
        ShareCase(text: "Pinpoint #522 | 5 guesses\n1️⃣  | 1% match\n2️⃣  | 5% match\n3️⃣  | 82% match\n4️⃣  | 28% match\n5️⃣  | 100% match 📌\nlnkd.in/pinpoint.", game: .pinpoint, puzzle: 522, score: 5, completed: true),
        ShareCase(text: "Pinpoint #554 | 5 guesses\n1️⃣ | 81% match\n2️⃣ | 92% match\n3️⃣ | 2% match\n4️⃣ | 5% match\n5️⃣ | 6% match\nlnkd.in/pinpoint.", game: .pinpoint, puzzle: 554, score: 6, completed: false),
        ShareCase(text: "Pinpoint #460 | 5 guesses\n1️⃣ | 5% match 2️⃣ | 76% match 3️⃣ | 83% match 4️⃣ | 53% match 5️⃣ | 100% match 📌🏅I'm on a 145-day win streak!\nlnkd.in/pinpoint.", game: .pinpoint, puzzle: 460, score: 5, completed: true),
        ShareCase(text: "Pinpoint #301 | 1 guess\n1️⃣ | 100% match 📌\nlnkd.in/pinpoint.", game: .pinpoint, puzzle: 301, score: 1, completed: true),
    ]
    static let framed: [ShareCase] = [
        ShareCase(text: "Framed #1001\n🎥 🟥 🟥 🟩 ⬛ ⬛ ⬛\n\nhttps://framed.wtf", game: .framed, puzzle: 1001, score: 3, completed: true),
        ShareCase(text: "Framed #1002\n🎥 🟩 ⬛ ⬛ ⬛ ⬛ ⬛\n\nhttps://framed.wtf", game: .framed, puzzle: 1002, score: 1, completed: true),
        ShareCase(text: "Framed #1003\n🎥 🟥 🟥 🟥 🟥 🟥 🟥\n\nhttps://framed.wtf", game: .framed, puzzle: 1003, score: 7, completed: false),
    ]

    static let all: [ShareCase] =
        wordle + nerdle + quordle + octordle + dordle + connections + strands + spellingBee + mini + pips + linkedIn + pinpoint + framed
}
