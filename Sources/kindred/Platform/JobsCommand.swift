import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore

/// `kindred jobs`: the server's scheduled jobs, on its database.
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List the server's scheduled jobs or run one now (on the server's database).",
        subcommands: [List.self, Run.self]
    )

    /// One job as a tab-separated line: name, schedule, zone, next run, last outcome.
    static func line(_ status: JobStatus) -> String {
        let last = status.lastRun.map { run in
            "\(run.outcome.rawValue) \(run.startedAt.formatted(.iso8601)) \(run.durationMilliseconds)ms: \(run.message)"
        } ?? "-"
        return [status.name, status.schedule, status.timeZone, status.nextRunAt.formatted(.iso8601), last]
            .joined(separator: "\t")
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List jobs: name, schedule, time zone, next run, last outcome (tab-separated)."
        )
        @OptionGroup var options: ServerOptions
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func run() async throws {
            let statuses = try await withPlatform(options) { try await $0.jobs.statuses() }
            if json {
                print(try UsersCommand.json(statuses))
            } else {
                statuses.forEach { print(JobsCommand.line($0)) }
            }
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a job now and record the run (its schedule is unchanged); exits 1 if it fails."
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "The job's name (see `kindred jobs list`).") var name: String

        func run() async throws {
            let run: JobRun
            do {
                run = try await withPlatform(options) { try await $0.jobs.runNow(name) }
            } catch let error as JobError {
                throw ValidationError(error.description)
            }
            print("\(run.name)\t\(run.outcome.rawValue)\t\(run.durationMilliseconds)ms\t\(run.message)")
            if run.outcome == .failed { throw ExitCode.failure }
        }
    }
}
