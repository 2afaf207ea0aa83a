import ArgumentParser
import Foundation

/// The one `kindred` executable: the server, its administration, and each app's device flows.
@main
struct Kindred: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kindred",
        abstract: "Kindred: the privacy-first backend and device toolkit.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, UsersCommand.self, AdminCommand.self, BillingCommand.self, JobsCommand.self, QueueCommand.self,
            AccountCommand.self, CryptoCommand.self, CloserCommand.self, ChatCommand.self, StreaksCommand.self, EraserCommand.self,
            PulseCommand.self, IntegrityCommand.self, KeysCommand.self,
        ]
    )

    /// ArgumentParser's entry point, except that with `--json` a command line that does not parse
    /// (unknown option, missing argument, a `validate()` refusal) gives what scripts expect: one
    /// line `Error: …` on standard error (no usage block) and `{"error":{"code":"usage",…}}` on
    /// standard output, exit status 64. Help and everything else is ArgumentParser's.
    static func main() async {
        let json = CommandLine.arguments.dropFirst().contains("--json")
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let status = exitCode(for: error)
            guard json, status != .success else { exit(withError: error) }
            let line = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            StandardIO.writeLine(ChatOptions.encode(["error": ["code": "usage", "message": line]]))
            FileHandle.standardError.write(Data("Error: \(line)\n".utf8))
            Foundation.exit(status.rawValue)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
