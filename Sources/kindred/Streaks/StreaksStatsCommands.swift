import ArgumentParser
import Foundation
import StreakKit

/// `kindred streaks stats [--game G] [--range 1|7|30|365] [--chart FILE.svg|FILE.png] [--csv FILE] [--at ISO8601]`.
struct StreaksStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Played, completed, completion rate, average score and streaks over today or the last 7, 30 or 365 days.",
        discussion: """
            With --game, also the game's deep dive: the guess distribution (Wordle, Nerdle, Pinpoint), \
            the hints (Strands) or the times per difficulty (Pips). --chart writes an SVG file (a PNG \
            when the name ends in .png, through rsvg-convert or ImageMagick's convert): the \
            guess distribution for those games, else the calendar of days played over the range. \
            --csv writes the range's results (of --game only, when given) as RFC 4180 CSV with the header \
            date,game,puzzle,score,maxAttempts,completed (- for standard output, then nothing else is printed).
            """)

    @OptionGroup var options: StreaksOptions
    @Option(help: "Only this game's results.") var game: String?
    @Option(help: "Days up to today: 1, 7, 30 or 365.") var range = 7
    @Option(help: "Write a chart to this .svg or .png file (PNG needs rsvg-convert or ImageMagick).") var chart: String?
    @Option(help: "Write the range's results to this CSV file (- for standard output).") var csv: String?
    @Option(help: "Compute as of this instant, ISO 8601 (default: now).") var at: String?

    func validate() throws {
        if AnalyticsRange(rawValue: range) == nil { throw ValidationError("--range must be 1, 7, 30 or 365") }
    }

    func run() async throws {
        let catalog = GameCatalog()
        let gameID = game.map { GameID(rawValue: $0) }
        if let game, let gameID, catalog.game(gameID) == nil {
            throw CommandFailure("--game: unknown game \"\(game)\" (see `kindred streaks games`)")
        }
        let span = AnalyticsRange(rawValue: range) ?? .week
        let now = try StreaksAddCommand.instant(at)
        let store = try options.store()
        try await options.run {
            if let chart { _ = try StreaksChartFile.format(of: chart) }
            let zone = try options.timeZone(store)
            let results = try store.allResults()
            let summary = Analytics.summary(of: results, range: span, game: gameID, now: now, timeZone: zone)
            let inRange = results.filter { $0.day >= summary.firstDay && $0.day <= summary.lastDay }
            var object = Self.object(summary)
            var lines = [Self.line(summary, title: gameID.flatMap { catalog.game($0)?.name } ?? "All games")]
            lines += summary.games.map { stats in
                "  \(catalog.game(stats.game)?.name ?? stats.game.rawValue): \(stats.played) played, \(stats.completed) completed"
                    + (stats.averageScore.map { ", average score \(Self.decimal($0))" } ?? "")
            }
            var distribution: GuessDistribution?
            if let gameID {
                distribution = Analytics.guessDistribution(of: inRange, game: gameID, catalog: catalog)
                if let distribution {
                    object["distribution"] = ["counts": distribution.counts, "failed": distribution.failed, "maxGuesses": distribution.maxGuesses]
                    lines.append("guesses: " + distribution.counts.enumerated().map { "\($0.offset + 1): \($0.element)" }.joined(separator: ", ") + ", X: \(distribution.failed)")
                } else if gameID == .strands {
                    let hints = Analytics.strandsHints(of: inRange)
                    object["hints"] = [
                        "games": hints.games, "total": hints.totalHints, "average": orNull(hints.averageHints), "hintFree": hints.hintFree,
                        "gamesByHints": Dictionary(uniqueKeysWithValues: hints.gamesByHints.map { (String($0.key), $0.value) }),
                    ] as [String: Any]
                    lines.append("hints: \(hints.totalHints) in \(hints.games) games, \(hints.hintFree) without a hint")
                } else if gameID == .pips {
                    let times = Analytics.pipsTimes(of: inRange)
                    object["times"] = times.map {
                        ["difficulty": $0.difficulty.rawValue, "solved": $0.solved, "medianSeconds": orNull($0.medianSeconds), "bestSeconds": orNull($0.bestSeconds)] as [String: Any]
                    }
                    lines += times.map { "\($0.difficulty.rawValue): \($0.solved) solved" + ($0.bestSeconds.map { ", best \($0) s" } ?? "") + ($0.medianSeconds.map { ", median \(Self.decimal($0)) s" } ?? "") }
                }
            }
            if let chart {
                let title = "\(gameID.flatMap { catalog.game($0)?.name } ?? "All games"), \(summary.firstDay) to \(summary.lastDay)"
                let svg = distribution.map { GuessDistributionChart.svg($0, title: "\(title): guesses") }
                    ?? StreakCalendarChart.svg(gameID.map { id in inRange.filter { $0.game == id } } ?? inRange, from: summary.firstDay, to: summary.lastDay, title: "\(title): days played")
                try StreaksChartFile.write(svg, to: chart)
                object["chart"] = chart
                lines.append("chart: \(chart)")
            }
            if let csv {
                let rows = gameID.map { id in inRange.filter { $0.game == id } } ?? inRange
                let text = ResultsCSV.export(rows)
                if csv == "-" {
                    StandardIO.writeBytes(Array(text.utf8))
                    return
                }
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: csv), options: .atomic)
                } catch {
                    throw CommandFailure("cannot write \(csv): \(error.localizedDescription)")
                }
                object["csv"] = ["file": csv, "rows": rows.count] as [String: Any]
                lines.append("csv: \(csv) (\(rows.count) results)")
            }
            options.output(lines.joined(separator: "\n"), json: object)
        }
    }

    /// The JSON of a range summary.
    static func object(_ summary: RangeSummary) -> [String: Any] {
        [
            "range": summary.range.rawValue, "firstDay": summary.firstDay.description, "lastDay": summary.lastDay.description,
            "played": summary.played, "completed": summary.completed, "completionRate": summary.completionRate,
            "daysPlayed": summary.daysPlayed, "averageScore": orNull(summary.averageScore),
            "currentStreak": summary.currentStreak, "longestStreak": summary.longestStreak,
            "games": summary.games.map {
                ["game": $0.game.rawValue, "played": $0.played, "completed": $0.completed, "averageScore": orNull($0.averageScore)] as [String: Any]
            },
        ]
    }

    /// The first line of the text output.
    static func line(_ summary: RangeSummary, title: String) -> String {
        "\(title), \(summary.firstDay) to \(summary.lastDay): \(summary.played) played, \(summary.completed) completed "
            + "(\(Int((summary.completionRate * 100).rounded())) %), streak \(summary.currentStreak) (longest \(summary.longestStreak))"
    }

    /// `value` with at most two decimals.
    static func decimal(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

}

/// `kindred streaks recap [--week YYYY-Www] [--chart FILE.svg|FILE.png] [--at ISO8601]`.
struct StreaksRecapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recap",
        abstract: "One ISO week: played, completed, completion rate, consistency, longest streak, most played game.")

    @OptionGroup var options: StreaksOptions
    @Option(help: "The ISO 8601 week, YYYY-Www (default: this week).") var week: String?
    @Option(help: "Write the week's bar chart to this .svg or .png file (PNG needs rsvg-convert or ImageMagick).") var chart: String?
    @Option(help: "Take \"this week\" at this instant, ISO 8601 (default: now).") var at: String?

    func validate() throws {
        if let week, ISOWeek(week) == nil {
            throw ValidationError("--week: \"\(week)\" is not an ISO week YYYY-Www (e.g. 2020-W53) of its year")
        }
    }

    func run() async throws {
        let catalog = GameCatalog()
        let now = try StreaksAddCommand.instant(at)
        let store = try options.store()
        try await options.run {
            if let chart { _ = try StreaksChartFile.format(of: chart) }
            let zone = try options.timeZone(store)
            let target = week.flatMap(ISOWeek.init) ?? ISOWeek(containing: LocalDay(now, in: zone))
            let recap = Analytics.recap(of: try store.allResults(), week: target)
            let mostPlayed = recap.mostPlayed.map { catalog.game($0)?.name ?? $0.rawValue } ?? "—"
            var lines = [
                "\(recap.week) (\(target.monday) to \(target.days[6])): \(recap.played) played, \(recap.completed) completed (\(Int((recap.completionRate * 100).rounded())) %)",
                "days played: \(recap.daysPlayed)/7, longest streak: \(recap.longestStreak), most played: \(mostPlayed)",
            ]
            var object: [String: Any] = [
                "week": recap.week.description, "firstDay": target.monday.description, "lastDay": target.days[6].description,
                "played": recap.played, "completed": recap.completed, "completionRate": recap.completionRate,
                "daysPlayed": recap.daysPlayed, "consistency": recap.consistency, "longestStreak": recap.longestStreak,
                "mostPlayed": orNull(recap.mostPlayed?.rawValue), "playedPerDay": recap.playedPerDay,
            ]
            if let chart {
                try StreaksChartFile.write(WeeklyRecapChart.svg(recap, title: "Week \(recap.week)"), to: chart)
                object["chart"] = chart
                lines.append("chart: \(chart)")
            }
            options.output(lines.joined(separator: "\n"), json: object)
        }
    }
}
