import ArgumentParser

/// `kindred closer …`: Closer's operator commands, and one simulated phone per `--profile` folder.
struct CloserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "closer",
        abstract: "Closer: the catalog (operators), and a simulated device that pairs, answers, reveals and recovers.",
        discussion: """
            Each --profile folder is one phone: its session, its secure store (secure-store.bin and \
            secure-store.key, or KINDRED_PROFILE_PASSPHRASE) and its pending answer keys. Answers are \
            sealed on the device; the server sees only ciphertext.
            """,
        subcommands: [
            CloserQuestionsCommand.self,
            CloserSignUpCommand.self, CloserInviteCommand.self, CloserAcceptCommand.self, CloserTodayCommand.self,
            CloserAnswerCommand.self, CloserRevealCommand.self, CloserHistoryCommand.self, CloserPhraseCommand.self,
            CloserRecoverCommand.self, CloserNudgeCommand.self, CloserLeaveCommand.self, CloserThreadCommand.self,
            CloserDatesCommand.self, CloserBucketCommand.self, CloserPlayCommand.self, CloserGamesCommand.self,
            CloserCheckinCommand.self, CloserCapsuleCommand.self,
            CloserChallengeCommand.self, CloserChallengesCommand.self,
            CloserPartnerCommand.self, CloserMigrateCommand.self,
        ]
    )
}
