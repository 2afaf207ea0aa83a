import ArgumentParser
import Foundation
import StreakKit

/// `kindred streaks inbox drop|drain|list`: the share extension's hand-off (`ShareInbox`).
struct StreaksInboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "The share extension's inbox in the profile: `drop` is what the extension does, `drain` what the app does at launch.",
        discussion: """
            Each dropped share is one file in <profile>/streaksync-inbox. `drain` records every waiting \
            file exactly once, even when two apps drain at the same time; a file without a recordable \
            result is moved to streaksync-inbox/rejected with the reason printed.
            """,
        subcommands: [StreaksInboxDropCommand.self, StreaksInboxDrainCommand.self, StreaksInboxListCommand.self])
}

/// `kindred streaks inbox drop [TEXT] [--game G] [--at ISO8601]`.
struct StreaksInboxDropCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "drop", abstract: "Drop a share text in the inbox, as the share extension does (not parsed yet).")

    @OptionGroup var options: StreaksOptions
    @Argument(help: "The share text (default: standard input).") var text: String?
    @Option(help: "The game the text is from, when it names none.") var game: String?
    @Option(help: "When it was shared, ISO 8601 (default: now).") var at: String?

    func run() async throws {
        let input = text ?? StandardIO.readText()
        if let game, GameCatalog().game(GameID(rawValue: game)) == nil {
            throw CommandFailure("--game: unknown game \"\(game)\" (see `kindred streaks games`)")
        }
        let date = try StreaksAddCommand.instant(at)
        let inbox = ShareInbox.profile(at: options.profileURL)
        try await options.run {
            let name = try inbox.drop(.init(text: input, sharedAt: date, game: game.map { GameID(rawValue: $0) }))
            options.output("dropped \(name)", json: ["file": name, "sharedAt": StoredDate.text(StoredDate.truncated(date))])
        }
    }
}

/// `kindred streaks inbox drain`.
struct StreaksInboxDrainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "drain", abstract: "Record every share waiting in the inbox, each exactly once.")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let store = try options.store()
        let inbox = ShareInbox.profile(at: options.profileURL)
        try await options.run {
            let report = try inbox.drain(into: store, timeZone: try options.timeZone(store))
            let catalog = GameCatalog()
            var lines = report.added.map { "added: " + StreaksFormat.line($0, catalog: catalog) }
            lines += report.rejected.map { "rejected \($0.name): \($0.reason)" }
            lines += report.newlyUnlocked.map(StreaksFormat.line)
            lines.append("\(report.added.count) added, \(report.duplicates) already recorded, \(report.rejected.count) rejected")
            options.output(lines.joined(separator: "\n"), json: [
                "added": report.added.map(StreaksFormat.object), "duplicates": report.duplicates,
                "rejected": report.rejected.map { ["file": $0.name, "reason": $0.reason] },
                "takenElsewhere": report.takenElsewhere, "newAchievements": report.newlyUnlocked.map(StreaksFormat.object),
                "files": report.files.map { ["file": $0.name, "outcome": Self.outcome($0.receipt)] },
            ])
        }
    }

    /// A receipt's outcome for scripts.
    static func outcome(_ receipt: InboxReceipt) -> String {
        switch receipt {
        case .added: "added"
        case .duplicate: "duplicate"
        case .rejected: "rejected"
        case .alreadyTaken: "taken_elsewhere"
        }
    }
}

/// `kindred streaks inbox list`.
struct StreaksInboxListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The files waiting in the inbox, oldest first.")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let inbox = ShareInbox.profile(at: options.profileURL)
        try await options.run {
            let files = try inbox.waitingFiles()
            options.output(files.isEmpty ? "the inbox is empty" : files.joined(separator: "\n"), json: ["files": files])
        }
    }
}
