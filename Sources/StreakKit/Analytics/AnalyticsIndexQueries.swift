import Foundation

extension AnalyticsIndex {
    /// The summary over `range` ending today at `now` in `timeZone`, for `game` only when given; equal
    /// to `Analytics.summary` of the indexed results.
    public func summary(range: AnalyticsRange, game: GameID? = nil, now: Date, timeZone: TimeZone) -> RangeSummary {
        summary(range: range, game: game, today: LocalDay(now, in: timeZone))
    }

    /// The summary over `range` ending on `today`, for `game` only when given.
    public func summary(range: AnalyticsRange, game: GameID? = nil, today: LocalDay) -> RangeSummary {
        let span = range.days(endingOn: today)
        var filter: Int?
        if let game {
            guard let number = games.firstIndex(of: game) else {
                return RangeSummary(
                    range: range, firstDay: span.lowerBound, lastDay: span.upperBound, played: 0, completed: 0, completionRate: 0,
                    daysPlayed: 0, averageScore: nil, games: [], currentStreak: 0, longestStreak: 0)
            }
            filter = number
        }
        var perGame = (0..<games.count).map { Cell(game: $0) }
        var played = 0, completed = 0, scoreSum = 0, daysPlayed = 0
        var longest = 0, run = 0, lastCompletedDay = Int.min
        let end = firstDayIndex(atOrAfter: span.upperBound.ordinal + 1)
        var position = firstDayIndex(atOrAfter: span.lowerBound.ordinal)
        while position < end {
            var dayPlayed = false, dayCompleted = false
            for cell in cells[dayStarts[position]..<dayStarts[position + 1]] where filter == nil || cell.game == filter {
                dayPlayed = true
                dayCompleted = dayCompleted || cell.completed > 0
                played += cell.played
                completed += cell.completed
                scoreSum += cell.completedScoreSum
                perGame[cell.game].played += cell.played
                perGame[cell.game].completed += cell.completed
                perGame[cell.game].completedScoreSum += cell.completedScoreSum
            }
            if dayPlayed { daysPlayed += 1 }
            if dayCompleted {
                run = days[position] == lastCompletedDay + 1 ? run + 1 : 1
                lastCompletedDay = days[position]
                longest = max(longest, run)
            }
            position += 1
        }
        let stats = perGame.filter { $0.played > 0 }.map { cell in
            GameRangeStats(
                game: games[cell.game], played: cell.played, completed: cell.completed,
                averageScore: cell.completed == 0 ? nil : Double(cell.completedScoreSum) / Double(cell.completed))
        }.sorted { ($1.played, $0.game.rawValue) < ($0.played, $1.game.rawValue) }
        return RangeSummary(
            range: range, firstDay: span.lowerBound, lastDay: span.upperBound, played: played, completed: completed,
            completionRate: played == 0 ? 0 : Double(completed) / Double(played), daysPlayed: daysPlayed,
            averageScore: completed == 0 ? nil : Double(scoreSum) / Double(completed), games: stats,
            currentStreak: Self.currentRun(filter.map { completedDays[$0] } ?? anyCompletedDays, today: today.ordinal),
            longestStreak: longest)
    }

    /// The recap of `week`; equal to `Analytics.recap` of the indexed results.
    public func recap(week: ISOWeek) -> WeeklyRecap {
        let monday = week.monday.ordinal
        var playedPerDay = Array(repeating: 0, count: 7)
        var perGame = Array(repeating: 0, count: games.count)
        var completed = 0, daysPlayed = 0, longest = 0, run = 0, lastCompletedDay = Int.min
        let end = firstDayIndex(atOrAfter: monday + 7)
        var position = firstDayIndex(atOrAfter: monday)
        while position < end {
            var dayCompleted = false
            for cell in cells[dayStarts[position]..<dayStarts[position + 1]] {
                playedPerDay[days[position] - monday] += cell.played
                perGame[cell.game] += cell.played
                completed += cell.completed
                dayCompleted = dayCompleted || cell.completed > 0
            }
            daysPlayed += 1
            if dayCompleted {
                run = days[position] == lastCompletedDay + 1 ? run + 1 : 1
                lastCompletedDay = days[position]
                longest = max(longest, run)
            }
            position += 1
        }
        let played = playedPerDay.reduce(0, +)
        let mostPlayed = perGame.indices.filter { perGame[$0] > 0 }
            .min { (perGame[$1], games[$0].rawValue) < (perGame[$0], games[$1].rawValue) }
            .map { games[$0] }
        return WeeklyRecap(
            week: week, played: played, completed: completed,
            completionRate: played == 0 ? 0 : Double(completed) / Double(played), daysPlayed: daysPlayed,
            consistency: Double(daysPlayed) / 7, longestStreak: longest, mostPlayed: mostPlayed, playedPerDay: playedPerDay)
    }

    /// `game`'s guess distribution, or nil when the game has none; equal to `Analytics.guessDistribution`.
    public func guessDistribution(game: GameID, catalog: GameCatalog = GameCatalog()) -> GuessDistribution? {
        guard Analytics.guessGames.contains(game), let maxGuesses = catalog.game(game)?.bounds.maxScore, maxGuesses > 0 else { return nil }
        var counts = Array(repeating: 0, count: maxGuesses)
        var failed = 0
        if let number = games.firstIndex(of: game), let tally = guessTallies[number] {
            failed = tally.notCompleted
            for (guesses, count) in tally.completedByGuesses {
                if (1...maxGuesses).contains(guesses) { counts[guesses - 1] += count } else { failed += count }
            }
        }
        return GuessDistribution(game: game, maxGuesses: maxGuesses, counts: counts, failed: failed)
    }

    /// The Strands hints; equal to `Analytics.strandsHints`.
    public func strandsHints() -> HintSummary {
        let gameCount = strandsGamesByHints.values.reduce(0, +)
        let total = strandsGamesByHints.reduce(0) { $0 + $1.key * $1.value }
        return HintSummary(
            games: gameCount, totalHints: total, averageHints: gameCount == 0 ? nil : Double(total) / Double(gameCount),
            hintFree: strandsGamesByHints[0] ?? 0, gamesByHints: strandsGamesByHints)
    }

    /// Pips solve times per difficulty, easy first; equal to `Analytics.pipsTimes`.
    public func pipsTimes() -> [PipsTimes] {
        PipsDifficulty.allCases.map { difficulty in
            let times = pipsSeconds[difficulty] ?? []
            return PipsTimes(difficulty: difficulty, solved: times.count, medianSeconds: Analytics.median(times), bestSeconds: times.min())
        }
    }
}
