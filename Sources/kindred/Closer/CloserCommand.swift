import ArgumentParser

/// `kindred closer`: Closer's operator commands (the device commands join it from CloserKit's side).
struct CloserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "closer",
        abstract: "Closer: operator tasks on the catalog.",
        subcommands: [CloserQuestionsCommand.self]
    )
}
