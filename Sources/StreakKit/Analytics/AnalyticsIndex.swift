import Foundation

/// A player's results read once, in one pass, into per-day, per-game tallies and the deep dives'
/// figures, so every analytics question (any range, game, week or today) is answered without reading
/// the results again.
///
/// The fast path of `Analytics`: every answer equals the straightforward function's over the same
/// results (`Analytics.summary`, `recap`, `guessDistribution`, `strandsHints`, `pipsTimes`), which stay
/// the reference; `AnalyticsIndexTests` compares the two on random histories across a DST change and
/// time-zone changes. Why it exists: the straightforward functions copy every `GameResult` (strings,
/// details) once per question, and hash days into sets; the analytics dashboard asks 27 questions over
/// 62,084 results in 195 ms that way, in a few ms from one index (`scripts/bench-streak-analytics`,
/// docs/benchmarks.md "StreakSync analytics").
public struct AnalyticsIndex: Sendable {
    /// One game's results on one day.
    struct Cell: Sendable {
        /// The game's number (its position in `games`).
        var game: Int
        var played = 0
        var completed = 0
        /// The sum of the completed results' scores.
        var completedScoreSum = 0
    }

    /// What the deep dive of a game with guesses keeps: completed results per number of guesses, and
    /// the results not completed.
    struct GuessTally: Sendable {
        var completedByGuesses: [Int: Int] = [:]
        var notCompleted = 0
    }

    /// Which deep dive a game's results feed.
    private enum Kind { case guesses, strands, pips, none }

    /// One result's fields the tallies need, read in place.
    private struct Entry {
        var day: Int
        var game: Int
        var completed: Bool
        var score: Int
    }

    /// The distinct games (by `==`), in order of first appearance; a game's number is its position.
    let games: [GameID]
    /// The distinct days with a result, as ordinals, ascending.
    let days: [Int]
    /// Day `days[d]`'s cells are `cells[dayStarts[d]..<dayStarts[d + 1]]`, one per game played that day.
    let dayStarts: [Int]
    let cells: [Cell]
    /// Per game number, the days with a completed result, ascending.
    let completedDays: [[Int]]
    /// The days with a completed result of any game, ascending.
    let anyCompletedDays: [Int]
    /// Per game number, the guess tally of Wordle, Nerdle and Pinpoint (nil for other games).
    let guessTallies: [GuessTally?]
    /// Every Strands result's hints, counted by number of hints.
    let strandsGamesByHints: [Int: Int]
    /// The solved Pips puzzles' times per difficulty, in seconds.
    let pipsSeconds: [PipsDifficulty: [Int]]

    /// Reads `results` once (duplicates should be removed first, as for `Analytics`).
    public init(_ results: [GameResult]) {
        var games: [GameID] = []
        var guessTallies: [GuessTally?] = []
        var kinds: [Kind] = []
        var strandsGamesByHints: [Int: Int] = [:]
        var pipsSeconds: [PipsDifficulty: [Int]] = [:]
        var entries: [Entry] = []
        entries.reserveCapacity(results.count)
        var inDayOrder = true
        var last = 0
        // In place, reading only the fields needed: `for result in results` would copy each result.
        results.withUnsafeBufferPointer { results in
            for i in results.indices {
                let id = results[i].game
                // Results usually come day by day with the games in the same order: try the game after
                // the last one, then the last one, before searching.
                let number: Int
                if last + 1 < games.count, games[last + 1] == id {
                    number = last + 1
                } else if last < games.count, games[last] == id {
                    number = last
                } else if let found = games.firstIndex(of: id) {
                    number = found
                } else {
                    number = games.count
                    games.append(id)
                    let guesses = Analytics.guessGames.contains(id)
                    guessTallies.append(guesses ? GuessTally() : nil)
                    kinds.append(guesses ? .guesses : id == .strands ? .strands : id == .pips ? .pips : .none)
                }
                last = number
                let entry = Entry(day: results[i].day.ordinal, game: number, completed: results[i].completed, score: results[i].score)
                if let previous = entries.last, previous.day > entry.day { inDayOrder = false }
                entries.append(entry)
                switch kinds[number] {
                case .guesses:
                    let guesses: Int
                    if case .pinpoint(let details) = results[i].details { guesses = details.guesses } else { guesses = entry.score }
                    if entry.completed {
                        guessTallies[number]?.completedByGuesses[guesses, default: 0] += 1
                    } else {
                        guessTallies[number]?.notCompleted += 1
                    }
                case .strands:
                    if case .strands(let details) = results[i].details { strandsGamesByHints[details.hints, default: 0] += 1 }
                case .pips:
                    if entry.completed, case .pips(let details) = results[i].details {
                        pipsSeconds[details.difficulty, default: []].append(details.seconds)
                    }
                case .none:
                    break
                }
            }
        }
        if !inDayOrder { entries.sort { $0.day < $1.day } }

        var days: [Int] = [], dayStarts: [Int] = [], cells: [Cell] = []
        var completedDays = Array(repeating: [Int](), count: games.count), anyCompletedDays: [Int] = []
        var scratch = (0..<games.count).map { Cell(game: $0) }
        var touched: [Int] = []
        var start = 0
        while start < entries.count {
            let day = entries[start].day
            var end = start
            while end < entries.count, entries[end].day == day {
                let entry = entries[end]
                if scratch[entry.game].played == 0 { touched.append(entry.game) }
                scratch[entry.game].played += 1
                if entry.completed {
                    scratch[entry.game].completed += 1
                    scratch[entry.game].completedScoreSum += entry.score
                }
                end += 1
            }
            days.append(day)
            dayStarts.append(cells.count)
            var anyCompleted = false
            for game in touched {
                cells.append(scratch[game])
                if scratch[game].completed > 0 {
                    completedDays[game].append(day)
                    anyCompleted = true
                }
                scratch[game] = Cell(game: game)
            }
            if anyCompleted { anyCompletedDays.append(day) }
            touched.removeAll(keepingCapacity: true)
            start = end
        }
        dayStarts.append(cells.count)
        self.games = games
        self.days = days
        self.dayStarts = dayStarts
        self.cells = cells
        self.completedDays = completedDays
        self.anyCompletedDays = anyCompletedDays
        self.guessTallies = guessTallies
        self.strandsGamesByHints = strandsGamesByHints
        self.pipsSeconds = pipsSeconds
    }

    /// The position in `days` of the first day on or after `ordinal`.
    func firstDayIndex(atOrAfter ordinal: Int) -> Int {
        Self.lowerBound(of: ordinal, in: days)
    }

    /// The first position in the ascending `values` whose value is `value` or more.
    static func lowerBound(of value: Int, in values: [Int]) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The run of consecutive days in the ascending, distinct `days` ending on `today`, or on the day
    /// before when `today` is not in it (as `DayRuns.current`).
    static func currentRun(_ days: [Int], today: Int) -> Int {
        var position = lowerBound(of: today, in: days)
        var day = today
        if position == days.count || days[position] != today {
            day = today - 1
            position -= 1
            guard position >= 0, days[position] == day else { return 0 }
        }
        var length = 0
        while position >= 0, days[position] == day {
            length += 1
            day -= 1
            position -= 1
        }
        return length
    }
}
