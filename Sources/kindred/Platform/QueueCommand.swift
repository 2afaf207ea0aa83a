import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore

/// `kindred queue`: the work queue's dead letters, on the server's database.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "List or re-drive the work queue's dead letters (on the server's database).",
        subcommands: [DeadLetters.self, Redrive.self]
    )

    struct DeadLetters: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dead-letters",
            abstract: "List dead letters, newest first: id, queue, attempts, failed at, last error (tab-separated)."
        )
        @OptionGroup var options: ServerOptions
        @Option(help: "Only this queue's.") var queue: String?
        @Option(help: "At most this many (1–1000).") var limit = 100
        @Flag(help: "Print JSON (with payloads) instead of tab-separated lines.") var json = false

        func run() async throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
            let letters = try await withPlatform(options) { try await $0.queue.deadLetters(queue: queue, limit: limit) }
            if json {
                print(try UsersCommand.json(letters))
            } else {
                for letter in letters {
                    let error = letter.lastError.replacingOccurrences(of: "\n", with: " ")
                    print([letter.id, letter.queue, "\(letter.attempts)", letter.failedAt.formatted(.iso8601), error].joined(separator: "\t"))
                }
            }
        }
    }

    struct Redrive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put dead letters back on their queue, due now, with attempts reset."
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "The dead letter's id.") var id: String?
        @Flag(help: "Re-drive every dead letter (of --queue, if given).") var all = false
        @Option(help: "With --all: only this queue's.") var queue: String?

        func validate() throws {
            guard (id != nil) != all else { throw ValidationError("give a dead letter's id or --all, not both") }
            guard queue == nil || all else { throw ValidationError("--queue goes with --all") }
        }

        func run() async throws {
            if let id {
                do {
                    try await withPlatform(options) { try await $0.queue.redrive(id: id) }
                } catch let error as QueueError {
                    throw ValidationError(error.description)
                }
                print("re-drove \(id)")
            } else {
                let count = try await withPlatform(options) { try await $0.queue.redriveAll(queue: queue) }
                print("re-drove \(count)")
            }
        }
    }
}
