/// How many completed results took each number of guesses, and how many failed (Wordle, Nerdle,
/// Pinpoint).
public struct GuessDistribution: Hashable, Sendable, Codable {
    /// The game.
    public let game: GameID
    /// The most guesses a completed result can take (6 for Wordle and Nerdle, 5 for Pinpoint).
    public let maxGuesses: Int
    /// `counts[i]` is the number of completed results solved in `i + 1` guesses; `maxGuesses` entries.
    public let counts: [Int]
    /// Results not solved.
    public let failed: Int

    /// Completed plus failed results.
    public var total: Int { counts.reduce(failed, +) }
}

/// Strands hints: how many games used each number of hints, and the mean.
public struct HintSummary: Hashable, Sendable, Codable {
    /// Strands games counted.
    public let games: Int
    /// Hints used in all of them.
    public let totalHints: Int
    /// `totalHints / games`, nil when there was no game.
    public let averageHints: Double?
    /// Games that used no hint.
    public let hintFree: Int
    /// Games per number of hints used, keyed by the number of hints.
    public let gamesByHints: [Int: Int]
}

/// Pips solve times for one difficulty.
public struct PipsTimes: Hashable, Sendable, Codable {
    /// The difficulty.
    public let difficulty: PipsDifficulty
    /// Puzzles solved at this difficulty.
    public let solved: Int
    /// The median solve time in seconds, nil when none was solved.
    public let medianSeconds: Double?
    /// The fastest solve time in seconds, nil when none was solved.
    public let bestSeconds: Int?
}

extension Analytics {
    /// The games that have a guess distribution.
    public static let guessGames: [GameID] = [.wordle, .nerdle, .pinpoint]

    /// `game`'s guess distribution over `results` (other games' results are ignored), or nil when the
    /// game is not one with guesses (see `guessGames`). The number of guesses is the share's: the
    /// score of Wordle and Nerdle, `guesses` of Pinpoint's details.
    public static func guessDistribution(of results: [GameResult], game: GameID, catalog: GameCatalog = GameCatalog()) -> GuessDistribution? {
        guard guessGames.contains(game), let maxGuesses = catalog.game(game)?.bounds.maxScore, maxGuesses > 0 else { return nil }
        var counts = Array(repeating: 0, count: maxGuesses)
        var failed = 0
        for result in results where result.game == game {
            let guesses: Int
            if case .pinpoint(let details) = result.details { guesses = details.guesses } else { guesses = result.score }
            if result.completed, (1...maxGuesses).contains(guesses) {
                counts[guesses - 1] += 1
            } else {
                failed += 1
            }
        }
        return GuessDistribution(game: game, maxGuesses: maxGuesses, counts: counts, failed: failed)
    }

    /// The Strands hints over `results` (other games' results are ignored).
    public static func strandsHints(of results: [GameResult]) -> HintSummary {
        var hints: [Int] = []
        for result in results where result.game == .strands {
            if case .strands(let details) = result.details { hints.append(details.hints) }
        }
        let total = hints.reduce(0, +)
        return HintSummary(
            games: hints.count, totalHints: total, averageHints: mean(hints), hintFree: hints.filter { $0 == 0 }.count,
            gamesByHints: Dictionary(grouping: hints, by: { $0 }).mapValues(\.count))
    }

    /// Pips solve times per difficulty, easy first (solved puzzles only; other games are ignored).
    public static func pipsTimes(of results: [GameResult]) -> [PipsTimes] {
        var seconds: [PipsDifficulty: [Int]] = [:]
        for result in results where result.game == .pips && result.completed {
            if case .pips(let details) = result.details { seconds[details.difficulty, default: []].append(details.seconds) }
        }
        return PipsDifficulty.allCases.map { difficulty in
            let times = seconds[difficulty] ?? []
            return PipsTimes(difficulty: difficulty, solved: times.count, medianSeconds: median(times), bestSeconds: times.min())
        }
    }
}
