import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore

/// `kindred admin`: the admin console's operators, on the server's database.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Create, list, disable or enable the admin console's operators (on the server's database).",
        subcommands: [Create.self, List.self, Disable.self, Enable.self]
    )

    /// Opens and migrates the database named by the server options, runs `body`, closes it.
    static func withOperators<T>(_ options: ServerOptions, _ body: (AdminOperators) async throws -> T) async throws -> T {
        try await options.withMigratedDatabase { database, settings, _ in
            try await body(AdminOperators(database: database, parameters: settings.server.auth.passwordParameters))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an operator (password from KINDRED_PASSWORD or --password-stdin)."
        )
        @OptionGroup var options: ServerOptions
        @Option(help: "The operator's e-mail address (their login).") var email: String
        @OptionGroup var password: PasswordInput

        func run() async throws {
            let secret = try password.password()
            do {
                let created = try await AdminCommand.withOperators(options) { try await $0.create(email: email, password: secret) }
                print("created operator \(created.email) (\(created.id))")
            } catch let error as AdminOperatorError {
                throw CommandFailure(error.description)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List operators: id, e-mail, state, created (tab-separated)."
        )
        @OptionGroup var options: ServerOptions

        func run() async throws {
            for item in try await AdminCommand.withOperators(options, { try await $0.list() }) {
                print(
                    [item.id, item.email, item.disabledAt == nil ? "active" : "disabled", item.createdAt.formatted(.iso8601)]
                        .joined(separator: "\t")
                )
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an operator and end their console sessions.")
        @OptionGroup var options: ServerOptions
        @Option(help: "The operator's e-mail address.") var email: String

        func run() async throws {
            guard try await AdminCommand.withOperators(options, { try await $0.setDisabled(email: email, true) }) else {
                throw ValidationError("no operator \(email)")
            }
            print("disabled \(email)")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled operator again.")
        @OptionGroup var options: ServerOptions
        @Option(help: "The operator's e-mail address.") var email: String

        func run() async throws {
            guard try await AdminCommand.withOperators(options, { try await $0.setDisabled(email: email, false) }) else {
                throw ValidationError("no operator \(email)")
            }
            print("enabled \(email)")
        }
    }
}
