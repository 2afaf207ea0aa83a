import Foundation
import StreakKit

// kindred-streak-bench: share-text parsing throughput (release builds; scripts/bench-streak-parse).
// A mixed corpus of every game's shares (puzzle numbers varied, a fifth with CRLF line breaks and
// chat around them) goes through `GameCatalog.parse`, and the same texts through a plain line split
// (`split(separator: "\n")`) in the same run; the figure is parse texts/s ÷ split texts/s.
// Usage: kindred-streak-bench [--texts N] [--rounds R] [--json]   (default 200000 texts, 5 rounds)
// `--leaderboard SERVER_URL …` runs the leaderboard read benchmark (LeaderboardBench.swift; scripts/bench-streak-board).
// `--analytics` first runs the analytics benchmark instead (AnalyticsBench.swift; scripts/bench-streak-analytics).

if CommandLine.arguments.dropFirst().first == "--leaderboard" {
    await LeaderboardBench.run(Array(CommandLine.arguments.dropFirst(2)))
}

if CommandLine.arguments.dropFirst().first == "--analytics" {
    AnalyticsBench.run(Array(CommandLine.arguments.dropFirst(2)))
}

var texts = 200_000
var rounds = 5
var json = false
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--texts": texts = Int(arguments.first ?? "") ?? texts; arguments = Array(arguments.dropFirst())
    case "--rounds": rounds = max(1, Int(arguments.first ?? "") ?? rounds); arguments = Array(arguments.dropFirst())
    case "--json": json = true
    default:
        FileHandle.standardError.write(Data("usage: kindred-streak-bench [--texts N] [--rounds R] [--json]\n".utf8))
        exit(2)
    }
}

/// One template per share format; `{n}` is the puzzle number.
let templates: [String] = Game.all.map(\.exampleShare) + [
    "Wordle {n} X/6\n\n⬜⬜🟨⬜⬜\n⬜🟩⬜⬜⬜\n⬜🟩🟩⬜⬜\n⬜🟩🟩🟩⬜\n🟨🟩🟩🟩⬜\n⬜🟩🟩🟩🟩",
    "🙂 Daily Quordle {n}\n2️⃣8️⃣\n7️⃣9️⃣\nm-w.com/games/quordle/",
    "Connections\nPuzzle #{n}\n🟨🟩🟨🟨\n🟨🟨🟨🟨\n🟦🟪🟦🟦\n🟩🟪🟦🟪\n🟦🟪🟦🟦",
    "Strands #{n}\n“Bring it home”\n💡🔵🔵💡\n🔵🟡🔵🔵\n🔵",
    "I solved the 4/28/2025 New York Times\nMini Crossword in 0:22!",
    "Pips #{n}\nHard 🟣 2:59",
    "Queens #{n} | 0:11 First 👑s: 🟨 🟩 ⬜\nlnkd.in/queens.",
    "Zip #{n} | 0:09 and flawless 🏁 With no backtracks 🟢 lnkd.in/zip.",
    "Pinpoint #{n} | 5 guesses\n1️⃣ | 1% match\n2️⃣ | 5% match\n3️⃣ | 82% match\n4️⃣ | 28% match\n5️⃣ | 100% match 📌\nlnkd.in/pinpoint.",
    "Framed #{n}\n🎥 🟥 🟥 🟥 🟥 🟥 🟥\n\nhttps://framed.wtf",
].map { template in
    // Put `{n}` where the example's puzzle number is.
    var t = template
    for number in ["1,492", "1012", "#1012", "728", "143", "#0999", "512", "#123", "#45", "#120", "#150", "#542", "#142", "#1001", "#522"] {
        if let range = t.range(of: number) {
            t.replaceSubrange(range, with: number.hasPrefix("#") ? "#{n}" : "{n}")
            break
        }
    }
    return t
}

let corpus: [String] = (0..<texts).map { i in
    var text = templates[i % templates.count].replacingOccurrences(of: "{n}", with: String(100 + (i / templates.count) % 900))
    if i % 5 == 0 { text = "here's mine 🎉\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n\r\nyour turn" }
    return text
}

let catalog = GameCatalog()
// Every text must parse: the figure is for real shares, not for early rejections.
var failures = 0
for text in corpus.prefix(templates.count * 5) where (try? catalog.parse(text)) == nil {
    failures += 1
    FileHandle.standardError.write(Data("does not parse: \(text.debugDescription)\n".utf8))
}
if failures > 0 { exit(1) }

func measure(_ body: () -> Int) -> (seconds: Double, checksum: Int) {
    let clock = ContinuousClock()
    var checksum = 0
    let elapsed = clock.measure { checksum = body() }
    let parts = elapsed.components
    return (Double(parts.seconds) + Double(parts.attoseconds) / 1e18, checksum)
}

func parseAll() -> Int {
    var sum = 0
    for text in corpus {
        if let share = try? catalog.parse(text) { sum &+= share.score } else { sum &-= 1 }
    }
    return sum
}

func splitAll() -> Int {
    var sum = 0
    for text in corpus { sum &+= text.split(separator: "\n").count }
    return sum
}

_ = parseAll()
_ = splitAll()
var parseTimes: [Double] = []
var splitTimes: [Double] = []
var checksum = 0
for _ in 0..<rounds {
    let split = measure(splitAll)
    let parse = measure(parseAll)
    splitTimes.append(split.seconds)
    parseTimes.append(parse.seconds)
    checksum &+= split.checksum &+ parse.checksum
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let parseRate = Double(texts) / median(parseTimes)
let splitRate = Double(texts) / median(splitTimes)
let ratio = parseRate / splitRate
let roundRatios = zip(parseTimes, splitTimes).map { parse, split in split / parse }

if json {
    let object: [String: Any] = [
        "texts": texts, "rounds": rounds, "templates": templates.count, "games": Game.all.count,
        "parse_texts_per_second": parseRate.rounded(), "split_texts_per_second": splitRate.rounded(),
        "ratio": (ratio * 10_000).rounded() / 10_000, "round_ratios": roundRatios.map { ($0 * 10_000).rounded() / 10_000 },
        "checksum": checksum,
    ]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    func row(_ name: String, _ rate: Double) -> String {
        name.padding(toLength: 36, withPad: " ", startingAt: 0) + String(format: "%12.0f texts/s", rate)
    }
    print("corpus: \(texts) texts, \(templates.count) formats of \(Game.all.count) games, \(rounds) rounds (median)")
    print(row("GameCatalog.parse", parseRate))
    print(row("split(separator: \"\\n\") baseline", splitRate))
    print(String(format: "ratio parse / split: %.3f×", ratio) + " (rounds: " + roundRatios.map { String(format: "%.3f", $0) }.joined(separator: ", ") + ")")
}
