import ArgumentParser

/// `kindred crypto …`: generate, inspect, encrypt and decrypt every KindredCrypto wire
/// format, in the spirit of Tink's tinkey. Commands read stdin and write stdout.
struct CryptoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "Keysets, encryption and inspection of every Kindred wire format.",
        subcommands: [
            KeysetCommand.self,
            AeadCommand.self,
            HybridCommand.self,
            StreamingCommand.self,
            Argon2idCommand.self,
            PhraseCommand.self,
            SealCommand.self,
            OpenCommand.self,
            InspectCommand.self,
            InviteCommand.self,
        ]
    )
}
