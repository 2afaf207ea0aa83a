import ArgumentParser
import Foundation
import KindredClient
import SoulMateKit

/// `kindred chat signup --email E --first F --last L` (password: stdin or KINDRED_PASSWORD).
struct ChatSignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create a SoulMate account (first and last name required), take the session lock, publish the key.")

    @OptionGroup var options: ChatOptions
    @Option(help: "The e-mail address.") var email: String
    @Option(help: "The first name.") var first: String
    @Option(help: "The last name.") var last: String
    @Option(help: "This phone's name, as the session lock shows it.") var deviceName: String?
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        let (device, profile) = try options.device(deviceName: deviceName)
        let password = try passwordInput.password()
        try await options.run {
            try await device.signUp(email: email, password: password, firstName: first, lastName: last)
            try profile.save(in: options.profileURL)
            let user = try await device.userID()
            options.output(options.strings[.routePairing], json: ["userId": user, "installationId": device.installation.id])
        }
    }
}

/// Signs a phone in (`login`, or `takeover` with the password again) and prints the route.
func signIn(_ options: ChatOptions, deviceName: String?, passwordInput: PasswordInput,
            _ body: @escaping (SoulMateDevice, String) async throws -> Void) async throws {
    let (device, profile) = try options.device(deviceName: deviceName)
    let password = try passwordInput.password()
    try await options.run {
        try profile.save(in: options.profileURL)
        try await body(device, password)
        let route = try await device.route()
        options.output(options.strings[ChatRouteCommand.key(route.route)],
                       json: ["userId": try await device.userID(), "route": route.route.rawValue, "installationId": device.installation.id])
    }
}

/// `kindred chat login --email E`: refused while another phone holds the session lock.
struct ChatLogInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in and take the session lock (refused while another phone holds it).")

    @OptionGroup var options: ChatOptions
    @Option(help: "The e-mail address.") var email: String
    @Option(help: "This phone's name, as the session lock shows it.") var deviceName: String?
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        try await signIn(options, deviceName: deviceName, passwordInput: passwordInput) { [email] device, password in
            try await device.logIn(email: email, password: password)
        }
    }
}

/// `kindred chat takeover --email E`: the lost-phone recovery.
struct ChatTakeOverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "takeover",
        abstract: "Take the account over from a lost phone with the password: the old phone's sessions are revoked and it is told.")

    @OptionGroup var options: ChatOptions
    @Option(help: "The e-mail address.") var email: String
    @Option(help: "This phone's name, as the session lock shows it.") var deviceName: String?
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        try await signIn(options, deviceName: deviceName, passwordInput: passwordInput) { [email] device, password in
            try await device.takeOver(email: email, password: password)
        }
    }
}

/// `kindred chat logout`: releases the lock first; refused when that fails.
struct ChatLogOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Release the session lock, then sign out (refused when the release fails).")

    @OptionGroup var options: ChatOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            try await device.logOut()
            options.output(options.strings[.sessionSignedOut], json: ["signedOut": true])
        }
    }
}

/// `kindred chat profile [--first F --last L]`.
struct ChatProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show the profile's names, or set them (profile completion).")

    @OptionGroup var options: ChatOptions
    @Option(help: "A new first name.") var first: String?
    @Option(help: "A new last name.") var last: String?

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let names = try await device.profile(firstName: first, lastName: last)
            options.output("\(names.first ?? "–") \(names.last ?? "–")",
                           json: ["firstName": orNull(names.first), "lastName": orNull(names.last)])
        }
    }
}

/// `kindred chat route`: where the app would open.
struct ChatRouteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route", abstract: "Where the app opens: auth, sessionLocked, profileCompletion, pairing or chat.")

    @OptionGroup var options: ChatOptions

    static func key(_ route: SoulMateDevice.RouteName) -> SoulMateString {
        switch route {
        case .auth: .routeAuth
        case .sessionLocked: .routeSessionLocked
        case .profileCompletion: .routeProfileCompletion
        case .pairing: .routePairing
        case .chat: .routeChat
        }
    }

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let route = try await device.route()
            var line = options.strings[Self.key(route.route)]
            if route.pendingRequests > 0 { line += " · " + options.strings.pendingRequests(route.pendingRequests) }
            options.output(line, json: [
                "route": route.route.rawValue, "lock": route.lock.rawValue, "pendingRequests": route.pendingRequests,
                "pairId": orNull(route.pairId), "partnerId": orNull(route.partnerId),
            ])
        }
    }
}
