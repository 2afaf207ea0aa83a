import ArgumentParser
import Foundation
import StreakClient

/// `kindred streaks signup --email E --name N` (password: stdin or KINDRED_PASSWORD).
struct StreaksSignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create a StreakSync account with the name friends see; this device's results are queued for it.")

    @OptionGroup var options: StreaksOptions
    @Option(help: "The e-mail address.") var email: String
    @Option(help: "The name friends see on leaderboards (1–200 characters).") var name: String
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        let (device, profile) = try options.device()
        let password = try passwordInput.password()
        try await options.run {
            try profile.save(in: options.profileURL)
            try await device.signUp(email: email, password: password, displayName: name)
            let user = try await device.userID()
            options.output("signed up as \(name)", json: ["userId": user, "displayName": name])
        }
    }
}

/// `kindred streaks login --email E` (password: stdin or KINDRED_PASSWORD).
struct StreaksLogInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in; this device's results are queued for the account.")

    @OptionGroup var options: StreaksOptions
    @Option(help: "The e-mail address.") var email: String
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        let (device, profile) = try options.device()
        let password = try passwordInput.password()
        try await options.run {
            try profile.save(in: options.profileURL)
            try await device.logIn(email: email, password: password)
            let user = try await device.userID()
            options.output("signed in", json: ["userId": user])
        }
    }
}

/// `kindred streaks logout`.
struct StreaksLogOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out (the results stay on this device).")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            try await device.logOut()
            options.output("signed out", json: ["signedOut": true])
        }
    }
}

/// `kindred streaks profile [--name N]`.
struct StreaksProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "profile", abstract: "Show the name friends see, or set it.")

    @OptionGroup var options: StreaksOptions
    @Option(help: "A new name.") var name: String?

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let profile: StreakDevice.Profile
            if let name {
                profile = try await device.setDisplayName(name)
            } else {
                profile = try await device.profile()
            }
            options.output(profile.displayName ?? "(no name yet)", json: ["userId": profile.userId, "displayName": orNull(profile.displayName)])
        }
    }
}
