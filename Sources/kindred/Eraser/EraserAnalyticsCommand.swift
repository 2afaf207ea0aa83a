import ArgumentParser
import EraserServer
import Foundation
import KindredServer

/// `kindred eraser analytics`: what operators read of Ex-Eraser's anonymous analytics, on the
/// server's database.
struct EraserAnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Ex-Eraser's anonymous analytics: counts per day, and an export for PostHog.",
        subcommands: [Counts.self, Export.self]
    )

    /// The UTC days `from` to `to` (both included) as an interval; `days` back from today when absent.
    static func range(from: String?, to: String?, days: Int, now: Date = Date()) throws -> DateInterval {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        func day(_ text: String, _ option: String) throws -> Date {
            guard let date = formatter.date(from: text) else { throw ValidationError("\(option) must be a date, YYYY-MM-DD, not \(text)") }
            return date
        }
        let today = formatter.date(from: formatter.string(from: now)) ?? now
        let end = try to.map { try day($0, "--to") } ?? today
        let start = try from.map { try day($0, "--from") } ?? end.addingTimeInterval(-Double(days - 1) * 86_400)
        guard start <= end else { throw ValidationError("--from must not be after --to") }
        return DateInterval(start: start, end: end.addingTimeInterval(86_400))
    }

    struct Counts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Events per UTC day and event (tab-separated: day, event, count), optionally as an SVG chart."
        )
        @OptionGroup var options: ServerOptions
        @Option(help: "The first day, YYYY-MM-DD (default: --days back from --to).") var from: String?
        @Option(help: "The last day, YYYY-MM-DD (default: today, UTC).") var to: String?
        @Option(help: "How many days, when --from is absent.") var days = 30
        @Option(help: "Also write a stacked bar chart of the counts to this SVG file.") var svg: String?
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func validate() throws {
            guard (1...3_650).contains(days) else { throw ValidationError("--days must be 1 to 3650") }
        }

        func run() async throws {
            let range = try EraserAnalyticsCommand.range(from: from, to: to, days: days)
            let counts = try await options.withMigratedDatabase { database, _, _ in
                try await EraserAnalyticsReport.counts(in: range, database: database)
            }
            if let svg {
                let chart = AnalyticsChart(counts: counts, range: range).svg()
                try Data(chart.utf8).write(to: URL(fileURLWithPath: svg), options: .atomic)
            }
            if json {
                print(try UsersCommand.json(counts))
            } else {
                counts.forEach { print("\($0.day)\t\($0.event)\t\($0.count)") }
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the events of a range as one PostHog batch request body (its /batch/ format).",
            discussion: """
                The project API key is read from the environment variable POSTHOG_API_KEY (never a flag). \
                Each event gets a fresh random distinct_id and $process_person_profile: false, so PostHog \
                links nothing. Progress goes to standard error.
                """
        )
        @OptionGroup var options: ServerOptions
        @Option(help: "The first day, YYYY-MM-DD (default: --days back from --to).") var from: String?
        @Option(help: "The last day, YYYY-MM-DD (default: today, UTC).") var to: String?
        @Option(help: "How many days, when --from is absent.") var days = 30
        @Option(help: "Write to this file instead of standard output.") var out: String?
        @Flag(help: "Print a JSON summary (events written, file) on standard output; needs --out.") var json = false

        func validate() throws {
            guard (1...3_650).contains(days) else { throw ValidationError("--days must be 1 to 3650") }
            if json, out == nil { throw ValidationError("--json prints a summary: give --out FILE for the export itself") }
        }

        func run() async throws {
            guard let apiKey = ProcessInfo.processInfo.environment["POSTHOG_API_KEY"], !apiKey.isEmpty else {
                throw ValidationError("set POSTHOG_API_KEY to the PostHog project's API key")
            }
            let range = try EraserAnalyticsCommand.range(from: from, to: to, days: days)
            let handle: FileHandle
            if let out {
                guard FileManager.default.createFile(atPath: out, contents: nil) , let opened = FileHandle(forWritingAtPath: out) else {
                    throw ValidationError("cannot write \(out)")
                }
                handle = opened
            } else {
                handle = FileHandle.standardOutput
            }
            var written = 0
            let count = try await options.withMigratedDatabase { database, _, _ in
                try await EraserAnalyticsReport.writePostHogBatch(in: range, apiKey: apiKey, database: database) { piece in
                    try handle.write(contentsOf: Data(piece.utf8))
                    written += 1
                    if written % 10_000 == 0 { FileHandle.standardError.write(Data("\rexported \(written) events…".utf8)) }
                }
            }
            if out != nil { try handle.close() }
            if written >= 10_000 { FileHandle.standardError.write(Data("\n".utf8)) }
            if json {
                print(try UsersCommand.json(ExportSummary(events: count, file: out ?? "-")))
            } else if out != nil {
                print("exported \(count) events to \(out ?? "-")")
            }
        }
    }

    /// `export --json`'s answer.
    struct ExportSummary: Codable {
        var events: Int
        var file: String
    }
}
