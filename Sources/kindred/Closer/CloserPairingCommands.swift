import ArgumentParser
import CloserKit
import Foundation
import KindredClient

/// `kindred closer signup --email E --password P --name N`.
struct CloserSignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create a Closer account on this device and publish the device's key.")

    @OptionGroup var options: CloserOptions
    @Option(help: "The e-mail address.") var email: String
    @Option(help: "The password (visible to `ps`: for simulated devices; else KINDRED_PASSWORD or --password-stdin).")
    var password: String?
    @Option(help: "The display name.") var name: String?
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        let (device, profile) = try options.device()
        let secret = try password ?? passwordInput.password()
        let signedIn: SignedIn
        do {
            signedIn = try await device.session.signUp(email: email, password: secret, displayName: name)
        } catch {
            throw CommandFailure(error.description)
        }
        try profile.save(in: options.profileURL)
        try await closerRun {
            let key = try await device.publishDeviceKey()
            StandardIO.writeLine("signed up \(signedIn.user.id); device \(key.deviceId)")
        }
    }
}

/// `kindred closer invite`: the share string is alone on the last line.
struct CloserInviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite", abstract: "Create an invite; prints the share string (code and secret) on its own last line.")

    @OptionGroup var options: CloserOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun {
            let invite = try await device.createInvite()
            StandardIO.writeLine("invite \(invite.code), valid until \(invite.expiresAt.formatted(.iso8601)); share this line with your partner:")
            StandardIO.writeLine(invite.share)
        }
    }
}

/// `kindred closer accept INVITE`.
struct CloserAcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept an invite from its share string and pair.")

    @OptionGroup var options: CloserOptions
    @Argument(help: "The share string the inviter gave you (CODE-XXXXX-XXXXX-XXXX).") var invite: String

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun {
            let couple = try await device.acceptInvite(invite)
            StandardIO.writeLine("paired: couple \(couple.id)")
        }
    }
}

/// `kindred closer recover --phrase "…"`.
struct CloserRecoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover", abstract: "Recover the couple key on this device with the recovery phrase (sign in first).")

    @OptionGroup var options: CloserOptions
    @Option(help: "The ten-word recovery phrase.") var phrase: String

    func run() async throws {
        let (device, _) = try options.device()
        try await closerRun {
            try await device.recover(phrase: phrase)
            StandardIO.writeLine("recovered the couple key on this device")
        }
    }
}

/// `kindred closer phrase show|change`.
struct CloserPhraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phrase", abstract: "Show or change the recovery phrase.",
        subcommands: [Show.self, Change.self])

    /// `phrase show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print the recovery phrase kept on this device (checked against the server's wrapped key).")
        @OptionGroup var options: CloserOptions

        func run() async throws {
            let (device, _) = try options.device()
            try await closerRun { StandardIO.writeLine(try await device.verifiedPhrase().normalized) }
        }
    }

    /// `phrase change`.
    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change", abstract: "Re-wrap the couple key under a new phrase, upload it, and print the new phrase.")
        @OptionGroup var options: CloserOptions

        func run() async throws {
            let (device, _) = try options.device()
            try await closerRun { StandardIO.writeLine(try await device.changePhrase().normalized) }
        }
    }
}
