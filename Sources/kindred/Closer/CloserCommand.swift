import ArgumentParser

/// `kindred closer …`: one Closer phone per `--profile` folder, driven from a shell.
struct CloserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "closer",
        abstract: "Closer on a simulated device: pair, answer the daily question, reveal, recover.",
        discussion: """
            Each --profile folder is one phone: its session, its secure store (secure-store.bin and \
            secure-store.key, or KINDRED_PROFILE_PASSPHRASE) and its pending answer keys. Answers are \
            sealed on the device; the server sees only ciphertext.
            """,
        subcommands: [
            CloserSignUpCommand.self, CloserInviteCommand.self, CloserAcceptCommand.self, CloserTodayCommand.self,
            CloserAnswerCommand.self, CloserRevealCommand.self, CloserHistoryCommand.self, CloserPhraseCommand.self,
            CloserRecoverCommand.self, CloserNudgeCommand.self, CloserLeaveCommand.self,
        ]
    )
}
