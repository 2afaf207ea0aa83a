import ArgumentParser
import CloserAPI
import CloserKit
import CloserServer
import Foundation
import KindredStore

/// `kindred closer challenge list|join|today|done|progress|leave`: a phone's connection
/// challenges (docs/closer.md, "Connection challenges").
struct CloserChallengeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenge",
        abstract: "Connection challenges: join one together, mark each day's step, see both partners' progress.",
        subcommands: [List.self, Join.self, Today.self, Done.self, Progress.self, Leave.self]
    )

    /// `challenge list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The challenge catalog, free and premium.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let challenges = try await device.challengeCatalog()
                try options.output(
                    Components.Schemas.CloserChallengeList(challenges: challenges),
                    lines: challenges.map { "\($0.id)  [\($0.category), \($0.dayCount) days\($0.isPremium ? ", premium" : "")]  \($0.title)" }
                )
            }
        }
    }

    /// `challenge join ID`.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join a challenge for both of you; day 1 is today.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The challenge's id (from `challenge list`).") var challenge: String

        func run() async throws {
            try await options.run { device in
                let instance = try await device.joinChallenge(challenge)
                try options.output(instance, lines: ["joined \(instance.challengeId) (instance \(instance.id))"] + CloserChallengeCommand.today(instance))
            }
        }
    }

    /// `challenge today`.
    struct Today: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Today's step of each active challenge.")
        @OptionGroup var options: CloserPlayOptions

        func run() async throws {
            try await options.run { device in
                let active = try await device.challengeInstances().filter { $0.status == .active }
                try options.output(
                    Components.Schemas.CloserChallengeInstanceList(instances: active),
                    lines: active.isEmpty ? ["no active challenge; join one with `challenge join ID`"] : active.flatMap(CloserChallengeCommand.today)
                )
            }
        }
    }

    /// `challenge done ID [--day N]`.
    struct Done: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark your step of today (or an earlier day) done.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The instance's id, or the id of a challenge you are doing.") var challenge: String
        @Option(help: "The day (default: today's).") var day: Int?

        func run() async throws {
            try await options.run { device in
                let instance = try await device.markChallengeDay(challenge, day: day)
                try options.output(instance, lines: CloserChallengeCommand.progress(instance))
            }
        }
    }

    /// `challenge progress [ID]`.
    struct Progress: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Both partners' progress in one challenge, or in all of yours.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The instance's id, or the id of a challenge you are doing.") var challenge: String?

        func run() async throws {
            try await options.run { device in
                if let challenge {
                    let instance = try await device.challengeInstance(challenge)
                    try options.output(instance, lines: CloserChallengeCommand.progress(instance))
                } else {
                    let instances = try await device.challengeInstances()
                    try options.output(
                        Components.Schemas.CloserChallengeInstanceList(instances: instances),
                        lines: instances.isEmpty ? ["no challenges yet"] : instances.flatMap(CloserChallengeCommand.progress)
                    )
                }
            }
        }
    }

    /// `challenge leave ID`.
    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End an active challenge for both of you.")
        @OptionGroup var options: CloserPlayOptions
        @Argument(help: "The instance's id, or the id of a challenge you are doing.") var challenge: String

        func run() async throws {
            try await options.run { device in
                let instance = try await device.leaveChallenge(challenge)
                try options.output(instance, lines: ["left \(instance.challengeId) (instance \(instance.id))"])
            }
        }
    }

    /// `gratitude-7 day 2/7: Name a habit…`, when the instance has a step today.
    static func today(_ instance: CloserDevice.ChallengeInstance) -> [String] {
        guard let step = instance.todayStep else { return [] }
        return ["\(instance.challengeId) day \(instance.currentDay)/\(instance.dayCount): \(step)"]
    }

    /// The instance's status line and one line per partner: `<user>  3/7 days`.
    static func progress(_ instance: CloserDevice.ChallengeInstance) -> [String] {
        ["\(instance.challengeId) (\(instance.id)): \(instance.status.rawValue), day \(instance.currentDay)/\(instance.dayCount)"]
            + instance.partners.map { "  \($0.userId)  \($0.doneCount)/\(instance.dayCount) days\($0.finished ? " (finished)" : "")" }
    }
}

/// `kindred closer challenges import FILE`: operators' import of challenges.
struct CloserChallengesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenges", abstract: "Import challenges (operators; servers serve them after a restart).", subcommands: [Import.self])

    /// `challenges import FILE`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a challenges document (docs/closer.md, \"Connection challenges\") and store its challenges.")
        @OptionGroup var options: ServerOptions
        @Flag(help: "Print one JSON document on standard output.") var json = false
        @Argument(help: "A JSON challenges document ({\"version\": 1, \"challenges\": [...]}).") var file: String

        func run() async throws {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: file)) else {
                if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": "invalid_input", "message": "cannot read \(file)"]])) }
                throw CommandFailure("cannot read \(file)")
            }
            do {
                let summary = try await options.withMigratedDatabase { database, _, _ in
                    try await ChallengesImport.run(data, database: database, clock: SystemClock())
                }
                StandardIO.writeLine(
                    json ? ChatOptions.encode(["imported": summary.challengeIDs, "catalogChallengeCount": summary.catalogChallengeCount])
                        : summary.description
                )
            } catch let error as ChallengesError {
                if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": "invalid_challenges", "message": error.description]])) }
                throw CommandFailure(error.description)
            }
        }
    }
}
