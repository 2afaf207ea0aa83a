import ArgumentParser
import Foundation
import KindredAPI
import KindredClient
import OpenAPIAsyncHTTPClient
import PulseKit

/// `kindred pulse`: a simulated Pulse subscriber (or any app's premium gate) on this machine,
/// one profile folder per phone.
struct PulseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pulse",
        abstract: "Drive PulseKit's access check for a simulated subscriber (--profile DIR per phone).",
        discussion: """
            status reads the account's subscription document and applies Pulse's rule (active when \
            the latest expiration is in the future); sync asks the server to re-read Stripe and \
            RevenueCat first when access looks lost; watch prints every entitlement change live. \
            Checks fail closed: without the server, only a cached answer whose expiration is still \
            ahead grants access. Passwords come from standard input or KINDRED_PASSWORD.
            """,
        subcommands: [
            PulseSignUpCommand.self, PulseLogInCommand.self, PulseLogOutCommand.self, PulseStatusCommand.self,
            PulseSyncCommand.self, PulseWatchCommand.self,
        ]
    )
}

/// What every `pulse` command takes.
struct PulseOptions: ParsableArguments {
    @Option(help: "The profile folder of this device (default: $KINDRED_PROFILE or ./profiles/default).")
    var profile: String?

    @Option(help: "The server's base URL (default: the profile's, else \(AccountOptions.defaultServer)).")
    var server: String?

    @Option(help: "The app whose subscription is checked (default: pulse).")
    var app: String = "pulse"

    @Option(help: "Seconds a request may take before the check falls back (fails closed) (1–300).")
    var timeout: Int = 15

    @Flag(help: "Print one JSON document on standard output (watch: one per line).")
    var json = false

    /// The profile folder.
    var profileURL: URL {
        URL(fileURLWithPath: profile ?? ProcessInfo.processInfo.environment["KINDRED_PROFILE"] ?? "profiles/default")
    }

    func validate() throws {
        guard (1...300).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 300 seconds") }
        guard Components.Schemas.AppID(rawValue: app) != nil else {
            throw ValidationError("--app must be one of \(Components.Schemas.AppID.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// The session and access checker of this profile, and the profile to remember.
    func client() throws -> (EntitlementClient, AccountProfile) {
        let appID = Components.Schemas.AppID(rawValue: app) ?? .pulse
        let remembered = try AccountProfile.load(from: profileURL)
        let text = server ?? remembered?.serverURL.absoluteString ?? AccountOptions.defaultServer
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw CommandFailure("--server: \"\(text)\" is not an http(s) URL")
        }
        let session = KindredSession(
            serverURL: url, app: appID, store: FileTokenStore(profileDirectory: profileURL),
            transport: AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(Int64(timeout))))
        )
        return (EntitlementClient(session: session, cache: FileAccessCache(profileDirectory: profileURL)), AccountProfile(app: appID, serverURL: url))
    }

    /// Prints an answer: a JSON object with --json, else one line.
    func print(_ answer: AccessAnswer) {
        if json {
            StandardIO.writeLine(ChatOptions.encode(Self.object(answer)))
        } else {
            StandardIO.writeLine(Self.line(answer))
        }
    }

    /// The JSON form: times in Unix seconds.
    static func object(_ answer: AccessAnswer) -> [String: Any] {
        var object: [String: Any] = [
            "state": answer.state.rawValue, "grantsAccess": answer.grantsAccess, "source": answer.source.rawValue,
            "checkedAt": Int64(answer.checkedAt.timeIntervalSince1970),
        ]
        if let latest = answer.latestExpiration { object["latestExpiration"] = Int64(latest.timeIntervalSince1970) }
        if let problem = answer.problem { object["problem"] = problem }
        if let errors = answer.syncErrors { object["syncErrors"] = errors }
        return object
    }

    /// The text form: `active until 2026-12-26T10:00:00Z (server)`.
    static func line(_ answer: AccessAnswer) -> String {
        var text = answer.state.rawValue
        if let latest = answer.latestExpiration {
            text += (answer.state == .active ? " until " : " since ") + latest.formatted(.iso8601)
        }
        text += " (\(answer.source.rawValue))"
        if let problem = answer.problem { text += ": \(problem)" }
        if let errors = answer.syncErrors, !errors.isEmpty { text += "; could not sync \(errors.joined(separator: ", "))" }
        return text
    }

    /// Signs this profile in with `call` (sign-up or log-in), remembering the server, and prints
    /// `VERB as USER` (or `{"userId"}` with --json).
    func signIn(
        _ passwordInput: PasswordInput, verb: String,
        _ call: (KindredSession, String) async throws -> SignedIn
    ) async throws {
        let (client, profile) = try client()
        let password = try passwordInput.password()
        try await run {
            try profile.save(in: profileURL)
            let signedIn = try await call(client.session, password)
            json
                ? StandardIO.writeLine(ChatOptions.encode(["userId": signedIn.user.id]))
                : StandardIO.writeLine("\(verb) as \(signedIn.user.id)")
        }
    }

    /// Runs a body, turning client errors into one line (and a JSON error with --json).
    func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as KindredClientError {
            let failure = PulseKitError.client(error)
            if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": failure.code, "message": failure.description]])) }
            throw CommandFailure("\(failure.description) [\(failure.code)]")
        } catch let error as PulseKitError {
            if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": error.code, "message": error.description]])) }
            throw CommandFailure("\(error.description) [\(error.code)]")
        }
    }
}

/// `kindred pulse signup --email E` (password: stdin or KINDRED_PASSWORD).
struct PulseSignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Create an account on this profile.")
    @OptionGroup var options: PulseOptions
    @Option(help: "The e-mail address.") var email: String
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        try await options.signIn(passwordInput, verb: "signed up") { session, password in
            try await session.signUp(email: email, password: password)
        }
    }
}

/// `kindred pulse login --email E` (password: stdin or KINDRED_PASSWORD).
struct PulseLogInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in on this profile.")
    @OptionGroup var options: PulseOptions
    @Option(help: "The e-mail address.") var email: String
    @OptionGroup var passwordInput: PasswordInput

    func run() async throws {
        try await options.signIn(passwordInput, verb: "signed in") { session, password in
            try await session.logIn(email: email, password: password)
        }
    }
}

/// `kindred pulse logout`: ends the session and forgets the cached answer.
struct PulseLogOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out and forget the cached answer.")
    @OptionGroup var options: PulseOptions

    func run() async throws {
        let (client, _) = try options.client()
        try await options.run {
            try await client.session.logOut()
            try await client.forget()
            options.json ? StandardIO.writeLine(ChatOptions.encode(["signedOut": true])) : StandardIO.writeLine("signed out")
        }
    }
}

/// `kindred pulse status`: `fetchActiveState`.
struct PulseStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Read the subscription and apply Pulse's rule (no provider sync).")
    @OptionGroup var options: PulseOptions

    func run() async throws {
        let (client, _) = try options.client()
        options.print(await client.fetchActiveState())
    }
}

/// `kindred pulse sync [--force]`: `ensureActiveOrSync` (the boot check).
struct PulseSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "When access looks lost (or with --force), have the server re-read both providers, then re-check.")
    @OptionGroup var options: PulseOptions
    @Flag(help: "Sync even when active (\"Restore purchases\").") var force = false

    func run() async throws {
        let (client, _) = try options.client()
        options.print(await client.ensureActiveOrSync(force: force))
    }
}

/// `kindred pulse watch [--count N]`: entitlement changes as they happen.
struct PulseWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the state now and after every entitlement change (realtime), until interrupted.")
    @OptionGroup var options: PulseOptions
    @Option(help: "Stop after this many answers (the first is the state now).") var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        let (client, _) = try options.client()
        var printed = 0
        for await answer in client.changes() {
            options.print(answer)
            printed += 1
            if let count, printed >= count { break }
        }
    }
}
