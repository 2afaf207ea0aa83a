import ArgumentParser
import KindredClient

/// `kindred account signup --anonymous | --email E [--display-name N]`.
struct AccountSignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Create an account (anonymous, or with e-mail and password) and keep its session in the profile."
    )

    @OptionGroup var options: AccountOptions

    @Flag(help: "Create an anonymous account (no credential; one can be added later).")
    var anonymous = false

    @Option(help: "The e-mail address of a password account.")
    var email: String?

    @Option(help: "The display name to set.")
    var displayName: String?

    @OptionGroup var password: PasswordInput

    func validate() throws {
        guard anonymous != (email != nil) else {
            throw ValidationError("pass exactly one of --anonymous and --email")
        }
    }

    func run() async throws {
        let (session, profile) = try options.session()
        do {
            let signedIn: SignedIn
            if let email {
                signedIn = try await session.signUp(email: email, password: try password.password(), displayName: displayName)
            } else {
                signedIn = try await session.signUpAnonymously()
                if let displayName { _ = try await session.updateMe(.init(displayName: displayName)) }
            }
            try profile.save(in: options.profileURL)
            StandardIO.writeLine("signed up \(signedIn.user.id) (\(profile.app.rawValue), \(signedIn.user.isAnonymous ? "anonymous" : "password"))")
        } catch let error as KindredClientError {
            throw CommandFailure(error.description)
        }
    }
}

/// `kindred account login --email E`.
struct AccountLogInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with e-mail and password and keep the session in the profile."
    )

    @OptionGroup var options: AccountOptions

    @Option(help: "The account's e-mail address.")
    var email: String

    @OptionGroup var password: PasswordInput

    func run() async throws {
        let (session, profile) = try options.session()
        do {
            let signedIn = try await session.logIn(email: email, password: try password.password())
            try profile.save(in: options.profileURL)
            StandardIO.writeLine("logged in \(signedIn.user.id) (\(profile.app.rawValue))")
        } catch let error as KindredClientError {
            throw CommandFailure(error.description)
        }
    }
}
