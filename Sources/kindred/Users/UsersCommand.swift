import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore

/// `kindred users`: operator tasks on accounts, run on the server's database.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, show, disable or enable accounts (on the server's database).",
        subcommands: [List.self, Show.self, Disable.self, Enable.self]
    )

    /// Opens and migrates the database named by the server options, runs `body`, closes it.
    static func withAdministration<T>(
        _ options: ServerOptions, _ body: (AccountAdministration) async throws -> T
    ) async throws -> T {
        try await options.withMigratedDatabase { database, _, _ in
            try await body(AccountAdministration(database: database))
        }
    }

    /// One account as a tab-separated line: id, app, kind, providers, e-mail, state, created.
    static func line(_ account: AccountSummary) -> String {
        [
            account.id, account.app, account.isAnonymous ? "anonymous" : "permanent",
            account.providers.isEmpty ? "-" : account.providers.joined(separator: ","),
            account.email ?? "-", account.disabledAt == nil ? "active" : "disabled",
            account.createdAt.formatted(.iso8601),
        ].joined(separator: "\t")
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts, newest first.")
        @OptionGroup var options: ServerOptions
        @Option(help: "Only this app's accounts (closer, soulmate, streaksync, exeraser, pulse).") var app: String?
        @Option(help: "At most this many (1–1000).") var limit = 50
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func run() async throws {
            let appID = try app.map { name in
                guard let id = AppID(rawValue: name) else { throw ValidationError("unknown app \"\(name)\"") }
                return id
            }
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
            let accounts = try await UsersCommand.withAdministration(options) { try await $0.list(app: appID, limit: limit) }
            if json {
                print(try UsersCommand.json(accounts))
            } else {
                accounts.forEach { print(UsersCommand.line($0)) }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one account as JSON.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account id.") var id: String

        func run() async throws {
            guard let account = try await UsersCommand.withAdministration(options, { try await $0.show(id: id) }) else {
                throw ValidationError("no account \(id)")
            }
            print(try UsersCommand.json(account))
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an account and end all its sessions.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account id.") var id: String

        func run() async throws {
            guard try await UsersCommand.withAdministration(options, { try await $0.setDisabled(id: id, true) }) else {
                throw ValidationError("no account \(id)")
            }
            print("disabled \(id)")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled account again.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account id.") var id: String

        func run() async throws {
            guard try await UsersCommand.withAdministration(options, { try await $0.setDisabled(id: id, false) }) else {
                throw ValidationError("no account \(id)")
            }
            print("enabled \(id)")
        }
    }

    /// Pretty, key-sorted JSON with ISO 8601 dates.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
