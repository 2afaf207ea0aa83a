/// The value of every category's metric for a player's results.
public struct AchievementStats: Hashable, Sendable {
    /// Each category's value (0 when absent).
    public private(set) var values: [AchievementCategory: Int]

    /// Values set directly (tests, the server's recomputation).
    public init(values: [AchievementCategory: Int]) { self.values = values }

    /// The metrics of `results` (deduplicated first; games not in `catalog` count for nothing but
    /// the totals), with `socialShares` results shared with friends counted by the app's social side.
    public init(
        results: some Sequence<GameResult>, catalog: GameCatalog, socialShares: Int = 0, rules: AchievementRules = .init()
    ) {
        let results = GameResult.deduplicated(results)
        let completed = results.filter(\.completed)
        var values: [AchievementCategory: Int] = [:]

        var longest = 0
        var improvements = 0
        let byGame = Dictionary(grouping: results, by: \.game)
        for (id, gameResults) in byGame {
            guard let game = catalog.game(id) else { continue }
            var streak = Streak(game: id, cadence: game.cadence)
            var best: [String: GameResult] = [:]
            for result in gameResults {  // already in day order
                streak.record(result)
                guard result.completed else { continue }
                let key = result.variant ?? ""
                if let previous = best[key] {
                    if result.isBetter(than: previous, scoring: game.scoring) {
                        improvements += 1
                        best[key] = result
                    }
                } else {
                    best[key] = result
                }
            }
            longest = max(longest, streak.longest)
        }
        values[.streakMaster] = longest
        values[.personalBest] = improvements
        values[.gameCollector] = Set(completed.map(\.game)).count
        values[.perfectionist] = completed.filter(rules.isPerfect).count
        values[.speedDemon] = completed.filter(rules.isFast).count
        values[.marathonRunner] = completed.count
        var gamesByDay: [LocalDay: Set<GameID>] = [:]
        for result in completed { gamesByDay[result.day, default: []].insert(result.game) }
        values[.dailyDevotee] = gamesByDay.count
        values[.varietyPlayer] = gamesByDay.values.map(\.count).max() ?? 0
        values[.socialPlayer] = max(0, socialShares)
        let completedPerGame = Dictionary(grouping: completed, by: \.game).mapValues(\.count)
        values[.completionist] = completedPerGame.values.filter { $0 >= rules.completionistResults }.count
        self.values = values
    }

    /// The category's value.
    public subscript(category: AchievementCategory) -> Int { values[category] ?? 0 }
}
