import ArgumentParser
import Foundation
import StreakClient
import StreakKit

/// `kindred streaks add [TEXT] [--game G] [--at ISO8601]`: record a share on this device.
struct StreaksAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Record a share text (argument or standard input): stored, queued for sync, with the streak and new achievements.")

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The share text (default: standard input).") var text: String?
    @Option(help: "The game the text is from, when it names none.") var game: String?
    @Option(help: "When it was played, ISO 8601 (default: now); its day is taken in the profile's time zone.") var at: String?

    func run() async throws {
        let input = text ?? StandardIO.readText()
        let catalog = GameCatalog()
        if let game, catalog.game(GameID(rawValue: game)) == nil {
            throw CommandFailure("--game: unknown game \"\(game)\" (see `kindred streaks games`)")
        }
        let date = try StreaksAddCommand.instant(at)
        let store = try options.store()
        try await options.run {
            let zone = try options.timeZone(store)
            let share = try game.map { id throws(StreakKitError) in try catalog.parse(input, as: GameID(rawValue: id)) } ?? catalog.parse(input)
            let outcome = try store.record(GameResult(share: share, recordedAt: date, timeZone: zone), now: date)
            let streak = try store.streak(for: outcome.result.game, now: date, timeZone: zone)
            var lines = [StreaksFormat.line(outcome.result, catalog: catalog) + (outcome.inserted ? "" : " (already recorded)")]
            lines.append("streak: \(streak.current) (longest \(streak.longest))")
            lines += outcome.newlyUnlocked.map(StreaksFormat.line)
            options.output(lines.joined(separator: "\n"), json: [
                "result": StreaksFormat.object(outcome.result), "inserted": outcome.inserted,
                "streak": StreaksFormat.object(streak, now: date, timeZone: zone),
                "newAchievements": outcome.newlyUnlocked.map(StreaksFormat.object),
            ])
        }
    }

    /// `--at`'s instant, or now.
    static func instant(_ text: String?) throws -> Date {
        guard let text else { return Date() }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw CommandFailure("--at: \"\(text)\" is not an ISO 8601 instant (2026-03-02T08:15:00Z)")
        }
        return date
    }
}

/// `kindred streaks list [--game G] [--limit N]`: stored results, newest first.
struct StreaksListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The stored results, newest first.")

    @OptionGroup var options: StreaksOptions
    @Option(help: "Only this game's results.") var game: String?
    @Option(help: "At most this many (default: all).") var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let catalog = GameCatalog()
        if let game, catalog.game(GameID(rawValue: game)) == nil {
            throw CommandFailure("--game: unknown game \"\(game)\" (see `kindred streaks games`)")
        }
        let store = try options.store()
        try await options.run {
            let results = try store.results(game: game.map { GameID(rawValue: $0) }, limit: limit)
            options.output(
                results.map { StreaksFormat.line($0, catalog: catalog) }.joined(separator: "\n"),
                json: ["results": results.map(StreaksFormat.object)])
        }
    }
}

/// `kindred streaks streaks`: every played game's streak now.
struct StreaksStreaksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "streaks", abstract: "Every played game's streak now: current, longest, at risk.")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let store = try options.store()
        try await options.run {
            let zone = try options.timeZone(store)
            let now = Date()
            let streaks = try store.streaks(now: now, timeZone: zone)
            options.output(
                streaks.map { streak in
                    let name = store.catalog.game(streak.game)?.name ?? streak.game.rawValue
                    let status = streak.status(now: now, timeZone: zone)
                    return "\(name): \(streak.current) (longest \(streak.longest))\(status == .atRisk ? " — at risk" : "")"
                }.joined(separator: "\n"),
                json: ["streaks": streaks.map { StreaksFormat.object($0, now: now, timeZone: zone) }])
        }
    }
}

/// `kindred streaks achievements`: each category's progress and tiers.
struct StreaksAchievementsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "achievements", abstract: "Each achievement category: value, tier reached, next tier.")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let store = try options.store()
        try await options.run {
            let progress = try store.achievements()
            options.output(
                progress.map { item in
                    let tier = item.tier.map { $0.key.capitalized } ?? "—"
                    let next = item.next.map { " (next: \($0.tier.key) at \($0.threshold))" } ?? ""
                    return "\(item.category.title): \(item.value), \(tier)\(next)"
                }.joined(separator: "\n"),
                json: ["achievements": progress.map { item in
                    [
                        "id": item.id.rawValue, "category": item.category.rawValue, "title": item.category.title, "value": item.value,
                        "tier": orNull(item.tier?.key), "unlocks": item.unlocks.map(StreaksFormat.object),
                        "next": item.next.map { ["tier": $0.tier.key, "threshold": $0.threshold] as [String: Any] } ?? NSNull(),
                    ] as [String: Any]
                }])
        }
    }
}
