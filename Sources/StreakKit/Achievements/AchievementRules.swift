/// Which results count as perfect (Perfectionist) and fast (Speed Demon), and how many completed
/// results make a game count for Completionist.
public struct AchievementRules: Hashable, Sendable {
    /// Completed results a game needs to count for Completionist.
    public var completionistResults: Int
    /// Seconds at or under which a timed game's result is fast.
    public var fastSeconds: [GameID: Int]
    /// Pips's fast times per difficulty.
    public var fastPipsSeconds: [PipsDifficulty: Int]

    /// The standard rules (docs/streaksync-device.md, "Achievements").
    public init(
        completionistResults: Int = 30,
        fastSeconds: [GameID: Int] = [
            .miniCrossword: 30, .queens: 30, .tango: 30, .crossclimb: 60, .zip: 15, .miniSudoku: 30,
        ],
        fastPipsSeconds: [PipsDifficulty: Int] = [.easy: 30, .medium: 60, .hard: 120]
    ) {
        self.completionistResults = completionistResults
        self.fastSeconds = fastSeconds
        self.fastPipsSeconds = fastPipsSeconds
    }

    /// Whether `result` is perfect, where its share can show it: Wordle/Nerdle in 1–2, Quordle ≤ 22,
    /// Octordle ≤ 60, Dordle ≤ 7, Connections without a mistake, Strands without a hint, Spelling Bee
    /// at Genius or above, LinkedIn games flawless (Zip: or no backtracks), Pinpoint and Framed first
    /// guess. The Mini and Pips shares cannot show perfection.
    public func isPerfect(_ result: GameResult) -> Bool {
        guard result.completed else { return false }
        switch result.details {
        case .guessGrid: return result.score <= 2
        case .boards:
            switch result.game {
            case .quordle, .quordleWeekly: return result.score <= 22
            case .octordle: return result.score <= 60
            case .dordle: return result.score <= 7
            default: return false
            }
        case .connections(let details): return details.mistakes == 0
        case .strands(let details): return details.hints == 0
        case .spellingBee(let details): return (details.rank.map { $0 == .genius || $0 == .queenBee }) ?? false
        case .timed(let details): return result.game != .miniCrossword && details.flawless
        case .pips: return false
        case .zip(let details): return details.flawless || details.backtracks == 0
        case .pinpoint, .framed: return result.score == 1
        }
    }

    /// Whether `result` is a completed timed result at or under its game's fast time.
    public func isFast(_ result: GameResult) -> Bool {
        guard result.completed else { return false }
        switch result.details {
        case .pips(let details): return details.seconds <= (fastPipsSeconds[details.difficulty] ?? 0)
        case .timed(let details): return details.seconds <= (fastSeconds[result.game] ?? 0)
        case .zip(let details): return details.seconds <= (fastSeconds[result.game] ?? 0)
        default: return false
        }
    }
}
