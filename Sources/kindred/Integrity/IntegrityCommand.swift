import ArgumentParser
import Foundation
import KindredServer
import KindredServerCore
import KindredStore

/// `kindred integrity`: device-integrity records on the server's database (docs/device-integrity.md).
struct IntegrityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "integrity",
        abstract: "Device integrity: list recorded App Attest and Play Integrity verdicts (on the server's database).",
        subcommands: [Verdicts.self]
    )

    struct Verdicts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List recorded verdicts, newest first.")
        @OptionGroup var options: ServerOptions
        @Option(help: "Only this account's verdicts.") var user: String?
        @Option(help: "At most this many (1–1000).") var limit = 100
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
            if let user, user.isEmpty || user.utf8.count > 64 { throw ValidationError("--user must be an account id") }
        }

        func run() async throws {
            let verdicts = try await options.withMigratedDatabase { database, _, _ in
                try await IntegrityStore(database: database, clock: SystemClock()).verdicts(userID: user, limit: limit)
            }
            if json {
                print(try UsersCommand.json(["verdicts": verdicts]))
            } else {
                for verdict in verdicts {
                    print(IntegrityCommand.line(verdict))
                }
            }
        }
    }

    /// One verdict as a tab-separated line: time, user, app, platform, device, verdict, reason.
    static func line(_ verdict: IntegrityVerdictRecord) -> String {
        [
            verdict.recordedAt.formatted(.iso8601), verdict.userID, verdict.app, verdict.platform, verdict.device,
            verdict.verdict, verdict.reason ?? "-",
        ].joined(separator: "\t")
    }
}
