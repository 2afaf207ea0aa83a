// The games StreakSync follows. Ids never change once shipped; names and examples may.

extension Game {
    private static let numbered = 0...99_999
    /// Games numbered by date use `yyyymmdd`.
    private static let dated = 20_000_101...20_991_231
    /// Timed games: one second to 23:59:59.
    private static let timed = ScoreBounds(scores: 1...86_399, maxScore: 86_399, puzzles: numbered)

    /// NYT Wordle: guesses 1–6, a miss (`X/6`) scores 7.
    public static let wordle = Game(
        id: .wordle, name: "Wordle", publisher: "The New York Times", scoring: .fewerAttempts,
        bounds: ScoreBounds(scores: 1...7, maxScore: 6, puzzles: numbered),
        exampleShare: "Wordle 1,492 3/6*\n\n⬛🟨⬛⬛⬛\n🟩⬛🟩🟨⬛\n🟩🟩🟩🟩🟩")

    /// Nerdle: guesses 1–6, a miss scores 7.
    public static let nerdle = Game(
        id: .nerdle, name: "Nerdle", publisher: "Nerdle", scoring: .fewerAttempts,
        bounds: ScoreBounds(scores: 1...7, maxScore: 6, puzzles: numbered),
        exampleShare: "nerdlegame 728 3/6\n\n🟪⬛🟪🟪⬛🟪⬛⬛\n🟪🟩🟩🟩⬛🟩⬛🟪\n🟩🟩🟩🟩🟩🟩🟩🟩")

    /// Daily Quordle: the sum of four boards' guesses (1–9 each, all different); an unsolved board counts 10.
    public static let quordle = Game(
        id: .quordle, name: "Quordle", publisher: "Merriam-Webster", scoring: .fewerAttempts,
        bounds: ScoreBounds(scores: 10...40, maxScore: 30, puzzles: numbered),
        exampleShare: "Daily Quordle 1012\n6️⃣5️⃣\n🟥8️⃣\nm-w.com/games/quordle/")

    /// The Weekly Quordle Challenge: scored as Quordle, its streak counts weeks.
    public static let quordleWeekly = Game(
        id: .quordleWeekly, name: "Quordle Weekly Challenge", publisher: "Merriam-Webster", scoring: .fewerAttempts,
        cadence: .weekly, bounds: ScoreBounds(scores: 10...40, maxScore: 30, puzzles: numbered),
        exampleShare: "Weekly Quordle Challenge 143\n7️⃣4️⃣\n5️⃣6️⃣\nm-w.com/games/quordle/")

    /// Daily Octordle: the share's own `Score:` (eight boards, 1–13 guesses each, all different).
    public static let octordle = Game(
        id: .octordle, name: "Octordle", publisher: "Britannica", scoring: .fewerAttempts,
        bounds: ScoreBounds(scores: 36...120, maxScore: 76, puzzles: numbered),
        exampleShare: "Daily Octordle #1012\n8️⃣4️⃣\n5️⃣🔟\n9️⃣6️⃣\n🕛7️⃣\nScore: 61")

    /// Daily Dordle: the sum of two boards' guesses (1–7 each, different); an unsolved board counts 8.
    public static let dordle = Game(
        id: .dordle, name: "Dordle", publisher: "Zaratustra Productions", scoring: .fewerAttempts,
        bounds: ScoreBounds(scores: 3...16, maxScore: 13, puzzles: numbered),
        exampleShare: "Daily Dordle #0999 4&6/7\n⬜🟨⬜⬜⬜ ⬜⬜⬜🟩⬜\n🟨🟨⬜⬜⬜ ⬜🟩⬜🟩⬜\n⬜🟩🟩⬜🟨 ⬜⬜⬜⬜⬜\n🟩🟩🟩🟩🟩 🟨⬜⬜🟩⬜\n⬛⬛⬛⬛⬛ 🟩⬜🟨🟩⬜\n⬛⬛⬛⬛⬛ 🟩🟩🟩🟩🟩\nzaratustra.itch.io/dordle")

    /// NYT Connections: guesses (rows), 4–7; four mistakes end it unsolved.
    public static let connections = Game(
        id: .connections, name: "Connections", publisher: "The New York Times", scoring: .fewerGuesses,
        bounds: ScoreBounds(scores: 4...7, maxScore: 7, puzzles: numbered),
        exampleShare: "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪")

    /// NYT Strands: hints used.
    public static let strands = Game(
        id: .strands, name: "Strands", publisher: "The New York Times", scoring: .fewerHints,
        bounds: ScoreBounds(scores: 0...30, maxScore: 30, puzzles: numbered),
        exampleShare: "Strands #123\n“Theme words”\n💡🔵🔵🟡\n🔵🔵🔵")

    /// NYT Spelling Bee: points.
    public static let spellingBee = Game(
        id: .spellingBee, name: "Spelling Bee", publisher: "The New York Times", scoring: .higherScore,
        bounds: ScoreBounds(scores: 0...1_000, maxScore: 1_000, puzzles: dated),
        exampleShare: "Spelling Bee\nScore: 150\nWords: 25\nRank: Genius")

    /// NYT Mini Crossword: seconds.
    public static let miniCrossword = Game(
        id: .miniCrossword, name: "Mini Crossword", publisher: "The New York Times", scoring: .lessTime,
        bounds: ScoreBounds(scores: timed.scores, maxScore: timed.maxScore, puzzles: dated),
        exampleShare: "I solved the 12/3/2025 New York Times Mini Crossword in 0:45!")

    /// NYT Pips: seconds, one result per difficulty a day.
    public static let pips = Game(
        id: .pips, name: "Pips", publisher: "The New York Times", scoring: .lessTime, bounds: timed,
        exampleShare: "Pips #45 Easy 🟢\n1:12")

    /// LinkedIn Queens: seconds.
    public static let queens = Game(
        id: .queens, name: "Queens", publisher: "LinkedIn", scoring: .lessTime, bounds: timed,
        exampleShare: "Queens #123\n2:45 👑\nlnkd.in/queens.")

    /// LinkedIn Tango: seconds.
    public static let tango = Game(
        id: .tango, name: "Tango", publisher: "LinkedIn", scoring: .lessTime, bounds: timed,
        exampleShare: "Tango #120\n1:05 🌗\nlnkd.in/tango.")

    /// LinkedIn Crossclimb: seconds.
    public static let crossclimb = Game(
        id: .crossclimb, name: "Crossclimb", publisher: "LinkedIn", scoring: .lessTime, bounds: timed,
        exampleShare: "Crossclimb #522\n2:08 🪜\n🏅 I'm on a 94-day win streak!\nlnkd.in/crossclimb.")

    /// LinkedIn Zip: seconds (backtracks kept as a field).
    public static let zip = Game(
        id: .zip, name: "Zip", publisher: "LinkedIn", scoring: .lessTime, bounds: timed,
        exampleShare: "Zip #150 | 0:23 🏁\nWith 2 backtracks 🛑\nlnkd.in/zip.")

    /// LinkedIn Pinpoint: guesses 1–5, a miss scores 6.
    public static let pinpoint = Game(
        id: .pinpoint, name: "Pinpoint", publisher: "LinkedIn", scoring: .fewerGuesses,
        bounds: ScoreBounds(scores: 1...6, maxScore: 5, puzzles: numbered),
        exampleShare: "Pinpoint #542\n🤔 📌 ⬜ ⬜ ⬜ (2/5)\nlnkd.in/pinpoint.")

    /// LinkedIn Mini Sudoku: seconds.
    public static let miniSudoku = Game(
        id: .miniSudoku, name: "Mini Sudoku", publisher: "LinkedIn", scoring: .lessTime, bounds: timed,
        exampleShare: "Mini Sudoku #142 | 0:39 and flawless ✏️\nlnkd.in/minisudoku.")

    /// Framed: frames needed, 1–6; a miss scores 7.
    public static let framed = Game(
        id: .framed, name: "Framed", publisher: "framed.wtf", scoring: .fewerGuesses,
        bounds: ScoreBounds(scores: 1...7, maxScore: 6, puzzles: numbered),
        exampleShare: "Framed #1001\n🎥 🟥 🟥 🟩 ⬛ ⬛ ⬛\n\nhttps://framed.wtf")

    /// Every game, in catalog order.
    public static let all: [Game] = [
        .wordle, .nerdle, .quordle, .quordleWeekly, .octordle, .dordle, .connections, .strands, .spellingBee,
        .miniCrossword, .pips, .queens, .tango, .crossclimb, .zip, .pinpoint, .miniSudoku, .framed,
    ]
}
