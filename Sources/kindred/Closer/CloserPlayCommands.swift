import ArgumentParser
import CloserAPI
import CloserKit
import CloserServer
import Foundation
import KindredStore

/// `kindred closer play this-or-that|desire-sync|how-well|wheel start|answer|result`: one phone's
/// side of a game (docs/closer.md, "Games"); and `kindred closer games import FILE` (operators).
struct CloserPlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a game with your partner: answers are sealed, committed, then opened; results are computed on the device.",
        subcommands: [ThisOrThat.self, DesireSync.self, HowWell.self, Wheel.self]
    )

    /// `play this-or-that …`.
    struct ThisOrThat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "this-or-that", abstract: "Pick a side of each pair; the score is how often you agree.",
            subcommands: [Start.self, Answer.self, Show.self])

        struct Start: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Start a session (tells your partner).")
            @OptionGroup var options: CloserPlayOptions
            @Option(help: "The pack (default tot-everyday).") var pack = "tot-everyday"
            func run() async throws { try await CloserPlayCommand.start(.thisOrThat, pack: pack, options: options) }
        }

        struct Answer: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Answer every pair: one letter per item, a (first option) or b.")
            @OptionGroup var options: CloserPlayOptions
            @Argument(help: "The session id.") var session: String
            @Argument(help: "One of a/b per item, in pack order (e.g. abba…).") var choices: String
            func run() async throws {
                try await CloserPlayCommand.answer(session, options: options) { try await $0.answer(session, choices: try CloserPlayCommand.letters(choices)) }
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "result", abstract: "Open your slot when it is time and show the result.")
            @OptionGroup var options: CloserPlayOptions
            @Argument(help: "The session id.") var session: String
            func run() async throws { try await CloserPlayCommand.answer(session, options: options) { try await $0.result(session) } }
        }
    }

    /// `play desire-sync …`.
    struct DesireSync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "desire-sync",
            abstract: "Lean yes in private; a private set intersection shows each of you only what you both want.",
            subcommands: [Start.self, Answer.self, Show.self])

        struct Start: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Start a session (tells your partner).")
            @OptionGroup var options: CloserPlayOptions
            @Option(help: "The pack (default ds-together).") var pack = "ds-together"
            func run() async throws { try await CloserPlayCommand.start(.desireSync, pack: pack, options: options) }
        }

        struct Answer: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The item ids you lean yes to (at most half the pack); the rest are no.")
            @OptionGroup var options: CloserPlayOptions
            @Argument(help: "The session id.") var session: String
            @Argument(help: "Item ids you lean yes to.") var yes: [String] = []
            func run() async throws { try await CloserPlayCommand.answer(session, options: options) { try await $0.answer(session, yes: yes) } }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "result", abstract: "Play the second round when it is time and show the overlap.")
            @OptionGroup var options: CloserPlayOptions
            @Argument(help: "The session id.") var session: String
            func run() async throws { try await CloserPlayCommand.answer(session, options: options) { try await $0.result(session) } }
        }
    }

    /// `play how-well …`.
    struct HowWell: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "how-well", abstract: "One answers about themself, the other guesses; the score is the right guesses.",
            subcommands: [Start.self, Answer.self, Show.self])

        struct Start: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Start a session (tells your partner).")
            @OptionGroup var options: CloserPlayOptions
            @Option(help: "The pack (default hw-basics).") var pack = "hw-basics"
            func run() async throws { try await CloserPlayCommand.start(.howWell, pack: pack, options: options) }
        }

        struct Answer: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Answer every question: one letter per item (a = first option).")
            @OptionGroup var options: CloserPlayOptions
            @Option(help: "self (about yourself) or guess (about your partner).") var role: String
            @Argument(help: "The session id.") var session: String
            @Argument(help: "One of a–d per item, in pack order.") var choices: String
            func run() async throws {
                try await CloserPlayCommand.answer(session, options: options) {
                    try await $0.answer(session, choices: try CloserPlayCommand.letters(choices), role: role)
                }
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "result", abstract: "Open your slot when it is time and show the score.")
            @OptionGroup var options: CloserPlayOptions
            @Argument(help: "The session id.") var session: String
            func run() async throws { try await CloserPlayCommand.answer(session, options: options) { try await $0.result(session) } }
        }
    }

    /// `play wheel …`.
    struct Wheel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wheel", abstract: "A fair spin: each phone commits a random share; the result is the hash of both.",
            subcommands: [Start.self, Answer.self, Show.self])

        struct Start: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Start a session (tells your partner).")
            @OptionGroup var options: CloserPlayOptions
            @Option(help: "The pack (default wheel-evening).") var pack = "wheel-evening"
            func run() async throws { try await CloserPlayCommand.start(.wheel, pack: pack, options: options) }
        }

        struct Answer: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "answer", abstract: "Commit your random share.")
            @OptionGroup var options: CloserPlayOptions
            @Argument(help: "The session id.") var session: String
            func run() async throws { try await CloserPlayCommand.answer(session, options: options) { try await $0.answer(session) } }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "result", abstract: "Open your share when it is time and show the spin.")
            @OptionGroup var options: CloserPlayOptions
            @Argument(help: "The session id.") var session: String
            func run() async throws { try await CloserPlayCommand.answer(session, options: options) { try await $0.result(session) } }
        }
    }

    /// Starts a session and prints its id.
    static func start(_ kind: CloserDevice.GameKind, pack: String, options: CloserPlayOptions) async throws {
        try await options.run { device in
            let session = try await device.startGame(kind, packId: pack)
            try options.output(session, lines: ["session \(session.id) (\(kind.rawValue), pack \(session.packId))"])
        }
    }

    /// Runs a step of `GamePlay` on this profile and prints the result.
    static func answer(_ session: String, options: CloserPlayOptions, _ step: (GamePlay) async throws -> GamePlay.Result) async throws {
        try await options.run { device in
            let play = GamePlay(device: device, directory: options.device.profileURL.appendingPathComponent("closer-games"))
            let result = try await step(play)
            try options.output(result, lines: lines(result))
        }
    }

    /// `a` → 0, `b` → 1, … (at most `d`).
    static func letters(_ text: String) throws -> [Int] {
        try text.lowercased().map { letter in
            guard let value = letter.asciiValue, (97...100).contains(value) else { throw CommandFailure("answers are letters a–d, one per item (got \(letter))") }
            return Int(value - 97)
        }
    }

    /// The human-readable result.
    static func lines(_ result: GamePlay.Result) -> [String] {
        var lines = ["session \(result.sessionId): \(result.status)"]
        if let waiting = result.waitingFor { lines.append("waiting for \(waiting)") }
        if let score = result.score { lines.append("score: \(score.matches)/\(score.total) (\(score.percent)%)") }
        if let overlap = result.overlap {
            lines.append(overlap.isEmpty ? "no overlap this time" : "you both lean yes to: \(overlap.joined(separator: ", "))")
        }
        if let size = result.partnerSetSize { lines.append("your partner leaned yes to \(size) item(s)") }
        if let index = result.wheelIndex { lines.append("the wheel stops on #\(index + 1): \(result.wheelItem ?? "")") }
        return lines
    }
}

/// `kindred closer games import FILE`: operators' game packs (on the server's database).
struct CloserGamesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "games", abstract: "Import game packs (operators; servers serve them after a restart).", subcommands: [Import.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Validate a games document (docs/closer.md, \"Games\") and store its packs.")
        @OptionGroup var options: ServerOptions
        @Flag(help: "Print one JSON document on standard output.") var json = false
        @Argument(help: "A JSON games document ({\"packs\": [...]}).") var file: String

        func run() async throws {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: file)) else {
                if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": "invalid_input", "message": "cannot read \(file)"]])) }
                throw CommandFailure("cannot read \(file)")
            }
            do {
                let summary = try await options.withMigratedDatabase { database, _, _ in
                    try await GamesImport.run(data, database: database, clock: SystemClock())
                }
                StandardIO.writeLine(
                    json ? ChatOptions.encode(["imported": summary.packIDs, "itemCount": summary.itemCount, "catalogPackCount": summary.catalogPackCount])
                        : summary.description
                )
            } catch let error as GamesError {
                if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": "invalid_games", "message": error.description]])) }
                throw CommandFailure(error.description)
            }
        }
    }
}
