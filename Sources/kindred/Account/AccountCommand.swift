import ArgumentParser

/// `kindred account …`: sign up, log in, show and log out an app account from a device
/// profile, so several "phones" can be driven from one shell (`--profile DIR` each).
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Sign up, log in, show and log out an account, with its tokens in a profile folder.",
        discussion: """
            Passwords are never flags: they come from KINDRED_PASSWORD or, with --password-stdin, \
            from the first line of standard input. After signup or login the profile remembers \
            --app and --server, so later commands may leave them out.
            """,
        subcommands: [AccountSignUpCommand.self, AccountLogInCommand.self, AccountWhoAmICommand.self, AccountLogOutCommand.self]
    )
}
