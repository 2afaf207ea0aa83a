import ArgumentParser
import EraserKit
import Foundation

/// `kindred eraser messages find|vault`: exported conversations with the ex (seed priority 2).
struct EraserMessagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messages", abstract: "Exported conversations with the ex: find them, keep them in the Vault.",
        subcommands: [Find.self, Keep.self])

    struct Find: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find the exported chats (.txt) under a folder with the ex among the senders, and show the steps to hide them.")
        @OptionGroup var options: EraserDeviceOptions
        @Argument(help: "The folder of exported chats.") var folder: String
        @Option(help: "The ex as a contact: a name or a phone number (repeatable).") var contact: [String] = []
        @Option(help: "The country calling code of numbers written without one (44).") var countryCode: Int?

        struct Chat: Encodable { var file: String; var participant: String; var match: String; var confidence: Double; var messages: Int }
        struct Output: Encodable { var chats: [Chat]; var steps: [String] }

        func run() async throws {
            let names = contact.filter { EraserScanCommand.kind(of: $0) == .name }
            let checkedNames = try options.checked {
                if contact.isEmpty { throw ValidationError("give the ex with --contact (a name or a phone number)") }
                if names.count > 1 { throw ValidationError("give at most one contact name") }
                return names
            }
            let scanContact = ScanContact(name: checkedNames.first, phones: contact.filter { EraserScanCommand.kind(of: $0) == .phone },
                                          emails: contact.filter { EraserScanCommand.kind(of: $0) == .email })
            let folder = URL(fileURLWithPath: folder)
            let countryCode = countryCode
            try await options.run { (device) throws(EraserKitError) -> Output in
                let found = try device.findChats(in: folder, contact: scanContact, defaultCountryCode: countryCode)
                return Output(chats: found.map {
                    Chat(file: $0.export.file.path, participant: $0.participant, match: $0.match.kind.rawValue,
                         confidence: $0.match.confidence, messages: $0.export.messageCount)
                }, steps: EraserDevice.messagesGuide)
            } text: { output in
                (output.chats.map { "\($0.file)\t\($0.participant)\t\($0.match)" } + [""]
                    + output.steps.enumerated().map { "\($0.offset + 1). \($0.element)" }).joined(separator: "\n")
            }
        }
    }

    struct Keep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vault", abstract: "Keep an exported chat in the Vault (the file itself is left where it is).")
        @OptionGroup var options: EraserDeviceOptions
        @Argument(help: "The exported chat's .txt file.") var file: String

        func run() async throws {
            let file = URL(fileURLWithPath: file)
            try await options.run { (device) throws(EraserKitError) -> VaultItemOutput in
                VaultItemOutput(try device.vaultChat(file))
            } text: { "kept \($0.originalPath ?? "-") as \($0.id)" }
        }
    }
}
