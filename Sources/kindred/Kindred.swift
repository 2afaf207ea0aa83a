import ArgumentParser

/// The one `kindred` executable: the server, its administration, and each app's device flows.
@main
struct Kindred: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kindred",
        abstract: "Kindred: the privacy-first backend and device toolkit.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, UsersCommand.self, AdminCommand.self, BillingCommand.self, JobsCommand.self, QueueCommand.self,
            AccountCommand.self, CryptoCommand.self, CloserCommand.self, ChatCommand.self, StreaksCommand.self, EraserCommand.self,
            PulseCommand.self,
        ]
    )
}
