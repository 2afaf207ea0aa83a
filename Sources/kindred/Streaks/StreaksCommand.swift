import ArgumentParser
import Foundation
import StreakKit

/// `kindred streaks …`: StreakSync from a shell.
struct StreaksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streaks",
        abstract: "StreakSync: record puzzle results, keep streaks and achievements, sync, and compare with friends.",
        discussion: """
            `parse` needs no profile and no server: it reads the share text every puzzle game puts \
            on the clipboard (an argument, or standard input) and prints the result, or one JSON \
            object with --json. Unknown or garbled text is an error and a non-zero exit, never a \
            guess. docs/streaksync-device.md lists the games and their formats. The other commands use \
            a --profile folder: its store (streaksync.sqlite: results, achievements, settings and the \
            offline queue) works without a server; `signup`/`login`, `sync`, `code`, `friend add`, \
            `friends`, `accept`, `remove` and `board` talk to --server (refused while a guest plays: \
            `guest start|stop|status`). `inbox drop|drain` is the share extension's hand-off, `reminder` \
            the daily reminder, `link` opens a streaksync:// link. --json prints one JSON document \
            on standard output. Passwords come from standard input (--password-stdin) or \
            KINDRED_PASSWORD, never from a flag.
            """,
        subcommands: [
            StreaksParseCommand.self, StreaksGamesCommand.self,
            StreaksAddCommand.self, StreaksListCommand.self, StreaksStreaksCommand.self, StreaksAchievementsCommand.self,
            StreaksImportCommand.self, StreaksExportCommand.self, StreaksStatsCommand.self, StreaksRecapCommand.self,
            StreaksSignUpCommand.self, StreaksLogInCommand.self, StreaksLogOutCommand.self, StreaksProfileCommand.self,
            StreaksSyncCommand.self, StreaksCodeCommand.self, StreaksFriendCommand.self, StreaksFriendsCommand.self,
            StreaksAcceptCommand.self, StreaksRemoveCommand.self, StreaksBoardCommand.self,
            StreaksGuestCommand.self, StreaksInboxCommand.self, StreaksReminderCommand.self, StreaksLinkCommand.self,
        ]
    )
}

/// `kindred streaks parse [TEXT] [--json]`.
struct StreaksParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse", abstract: "Parse a share text (argument or standard input) into a result.")

    @Argument(help: "The share text (default: standard input).") var text: String?
    @Option(help: "The game the text is from, when it names none (e.g. a bare `Completed in 0:45`).") var game: String?
    @Flag(help: "Print one JSON object: game, puzzle, score, max, completed and the game's own fields.") var json = false

    func run() async throws {
        let input = text ?? StandardIO.readText()
        let catalog = GameCatalog()
        let share: ParsedShare
        do {
            if let game {
                guard catalog.game(GameID(rawValue: game)) != nil else {
                    throw CommandFailure("--game: unknown game \"\(game)\" (see `kindred streaks games`)")
                }
                share = try catalog.parse(input, as: GameID(rawValue: game))
            } else {
                share = try catalog.parse(input)
            }
        } catch let error as StreakKitError {
            if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": error.code, "message": error.description]])) }
            throw CommandFailure(error.description)
        }
        if json {
            StandardIO.writeLine(ChatOptions.encode(Self.object(share)))
        } else {
            let name = catalog.game(share.game)?.name ?? share.game.rawValue
            let puzzle = share.puzzle.map { " #\($0)" } ?? ""
            let variant = share.variant.map { " (\($0))" } ?? ""
            StandardIO.writeLine("\(name)\(puzzle)\(variant): \(share.completed ? "completed" : "failed"), score \(share.score) (max \(share.maxScore))")
        }
    }

    /// The JSON of a result: the fields every game has, and `details` (the game's own).
    static func object(_ share: ParsedShare) -> [String: Any] {
        var object: [String: Any] = [
            "game": share.game.rawValue, "puzzle": orNull(share.puzzle), "score": share.score, "max": share.maxScore,
            "completed": share.completed,
        ]
        if let variant = share.variant { object["variant"] = variant }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // `GameDetails` encodes as {"<kind>": {"_0": {…}}} (an enum with one unlabeled value per
        // case); scripts get the kind and the fields flat.
        if let data = try? encoder.encode(share.details),
           let details = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let (kind, value) = details.first
        {
            object["kind"] = kind
            object["details"] = (value as? [String: Any])?["_0"] ?? value
        }
        return object
    }

}

/// `kindred streaks games [--json]`.
struct StreaksGamesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "games", abstract: "The games StreakSync knows: id, name, scoring.")

    @Flag(help: "Print one JSON document.") var json = false

    func run() async throws {
        let games = GameCatalog().games
        if json {
            StandardIO.writeLine(ChatOptions.encode(["games": games.map {
                ["id": $0.id.rawValue, "name": $0.name, "publisher": $0.publisher, "scoring": $0.scoring.rawValue,
                 "cadence": $0.cadence.rawValue, "maxScore": $0.bounds.maxScore, "lowerIsBetter": $0.scoring.lowerIsBetter] as [String: Any]
            }]))
        } else {
            let width = games.map(\.id.rawValue.count).max() ?? 0
            for game in games {
                StandardIO.writeLine("\(game.id.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(game.name) — \(game.scoring.rawValue)")
            }
        }
    }
}
