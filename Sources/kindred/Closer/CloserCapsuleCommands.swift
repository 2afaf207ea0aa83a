import ArgumentParser
import CloserKit
import Foundation

/// `kindred closer capsule create|list|open|delete`: memory-lane time capsules of a simulated phone.
struct CloserCapsuleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capsule", abstract: "Memory lane: seal a time capsule, list capsules, open an unlocked one, delete your own locked one.",
        subcommands: [Create.self, List.self, Open.self, Delete.self]
    )

    /// The capsules in a JSON document.
    struct Listing: Encodable {
        var capsules: [OpenedCapsule]
    }

    /// `capsule create --title T --unlock-at ISO8601 [CONTENT]` (the content from standard input when absent).
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Seal a capsule (title and content under the couple key).")
        @OptionGroup var options: CloserPlayOptions
        @Option(help: "A title both partners see while it is locked.") var title: String
        @Option(help: "When it unlocks (ISO 8601, e.g. 2027-06-01T09:00:00Z).") var unlockAt: String
        @Argument(help: "The content (read from standard input when absent).") var content: String?

        func run() async throws {
            guard let unlock = ISO8601DateFormatter().date(from: unlockAt) else {
                if options.json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": "invalid_input", "message": "--unlock-at is not ISO 8601"]])) }
                throw CommandFailure("--unlock-at is not an ISO 8601 date and time (e.g. 2027-06-01T09:00:00Z)")
            }
            let text = content ?? StandardIO.readText()
            try await options.run { device in
                let capsule = try await device.sealCapsule(title: title, content: text, unlockAt: unlock)
                try options.output(capsule, lines: ["sealed \(capsule.id) until \(unlockAt)"])
            }
        }
    }

    /// `capsule list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every capsule, soonest unlock first.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let capsules = try await device.capsules()
                try options.output(
                    Listing(capsules: capsules),
                    lines: capsules.isEmpty ? ["no capsules yet"] : capsules.map { "\($0.locked ? "[locked]" : "[open]  ") \($0.id)  \($0.title)" }
                )
            }
        }
    }

    /// `capsule open ID`.
    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open an unlocked capsule.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The capsule's id.") var capsule: String

        func run() async throws {
            try await options.run { device in
                let opened = try await device.openCapsule(capsule)
                try options.output(opened, lines: [opened.title, opened.content ?? ""])
            }
        }
    }

    /// `capsule delete ID`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete your own capsule while it is locked.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The capsule's id.") var capsule: String

        func run() async throws {
            try await options.run { device in
                try await device.deleteCapsule(capsule)
                try options.output(["deleted": capsule], lines: ["deleted \(capsule)"])
            }
        }
    }
}
