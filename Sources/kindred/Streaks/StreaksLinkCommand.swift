import ArgumentParser
import Foundation
import StreakKit

/// `kindred streaks link URL`: a `streaksync://` deep link as its typed payload, with what this
/// profile knows about its target.
struct StreaksLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Open a streaksync:// link: print its payload (game, result, achievement or friend invite) and what it points at.",
        discussion: """
            A game link shows the game and this profile's streak in it; a result link the stored result \
            (or `"stored": false`); an achievement link the category's progress; a friend link the code, \
            to pass to `kindred streaks friend add`. A malformed link is an error with a stable code \
            (wrong_scheme, unknown_host, unknown_game, invalid_code, …).
            """)

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The link, e.g. streaksync://friend?code=K7QX2M.") var url: String
    @Option(help: "Take today at this instant for a game's streak, ISO 8601 (default: now).") var at: String?

    func run() async throws {
        let link: StreakLink
        do {
            link = try StreakLink.parse(url)
        } catch {
            if options.json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": error.code, "message": error.description]])) }
            throw CommandFailure("\(error.description) [\(error.code)]")
        }
        let now = try StreaksAddCommand.instant(at)
        let catalog = GameCatalog()
        // The store is read only when the profile has one: a link is parsed without a profile.
        let hasStore = FileManager.default.fileExists(atPath: options.profileURL.appendingPathComponent(StreakStore.fileName).path)
        try await options.run {
            let store = hasStore ? try options.store() : nil
            var object: [String: Any] = ["url": link.url]
            var line: String
            switch link {
            case .game(let id):
                let game = catalog.game(id)
                object["kind"] = "game"
                object["game"] = ["id": id.rawValue, "name": orNull(game?.name), "scoring": orNull(game?.scoring.rawValue)] as [String: Any]
                line = "game: \(game?.name ?? id.rawValue)"
                if let store {
                    let zone = try options.timeZone(store)
                    let streak = try store.streak(for: id, now: now, timeZone: zone)
                    object["streak"] = StreaksFormat.object(streak, now: now, timeZone: zone)
                    line += ", streak \(streak.current) (longest \(streak.longest))"
                }
            case .result(let id):
                object["kind"] = "result"
                object["resultId"] = id.rawValue
                let stored = try store?.result(id: id)
                object["stored"] = stored != nil
                if let stored { object["result"] = StreaksFormat.object(stored) }
                line = stored.map { "result: " + StreaksFormat.line($0, catalog: catalog) } ?? "result \(id.rawValue): not on this device"
            case .achievement(let id):
                object["kind"] = "achievement"
                object["achievementId"] = id
                let progress = try store?.achievements().first { $0.id.rawValue == id || id.hasPrefix($0.id.rawValue + ".") }
                object["known"] = AchievementCategory.allCases.contains { id == $0.id.rawValue || id.hasPrefix($0.id.rawValue + ".") }
                if let progress {
                    object["progress"] = ["category": progress.category.rawValue, "value": progress.value, "tier": orNull(progress.tier?.key)] as [String: Any]
                }
                line = "achievement: \(id)" + (progress.map { " — \($0.category.title), \($0.tier?.key ?? "no tier yet") (\($0.value))" } ?? "")
            case .friend(let code):
                object["kind"] = "friend"
                object["code"] = code.rawValue
                line = "friend invite: \(code.rawValue) — `kindred streaks friend add \(code.rawValue)` sends the request"
            }
            options.output(line, json: object)
        }
    }
}
