import ArgumentParser
import Foundation
import KindredServer
import KindredServerCore

/// `kindred keys`: the access-token signing keys, on the server's database.
///
/// The key-encryption key comes from `KINDRED_KEY_ENCRYPTION_KEY`, `KINDRED_KEY_ENCRYPTION_KEY_FILE`
/// or the `--config` file, as for `kindred serve`; never from a flag.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List, rotate, retire or re-seal the access-token signing keys (on the server's database).",
        discussion: """
            Replicas pick a change up within auth.signingKeyRefreshSeconds (30 s), and at once \
            for a token signed with a key they do not know yet. See docs/security.md.
            """,
        subcommands: [List.self, Rotate.self, Retire.self, Reseal.self]
    )

    /// Runs `body` on the administration of the configured database's keys; a `SigningKeyError`
    /// becomes one line on standard error and exit status 1.
    static func withKeys<T>(
        _ options: ServerOptions, _ body: (SigningKeyAdministration) async throws -> T
    ) async throws -> T {
        do {
            return try await options.withMigratedDatabase { database, settings, _ in
                try await body(SigningKeyAdministration(database: database, auth: settings.server.auth))
            }
        } catch let error as SigningKeyError {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// One key as a tab-separated line: id, state, sealed or plaintext, created, superseded, retired.
    static func line(_ key: SigningKeySummary) -> String {
        [
            key.id, key.state, key.sealedBy.map { "sealed:\($0)" } ?? "plaintext",
            key.createdAt.formatted(.iso8601), key.supersededAt?.formatted(.iso8601) ?? "-",
            key.retiredAt?.formatted(.iso8601) ?? "-",
        ].joined(separator: "\t")
    }

    /// Prints `keys` as JSON (`{"keys":[…]}`, with `newKey` after a rotation) or as lines.
    static func output(_ keys: [SigningKeySummary], newKey: String? = nil, resealed: [String]? = nil, json: Bool) throws {
        struct Document: Encodable {
            var newKey: String?
            var resealed: [String]?
            var keys: [SigningKeySummary]
        }
        if json {
            print(try UsersCommand.json(Document(newKey: newKey, resealed: resealed, keys: keys)))
        } else {
            if let newKey { print("rotated: new active key \(newKey)") }
            if let resealed { print("re-sealed \(resealed.count) key(s)" + (resealed.isEmpty ? "" : ": " + resealed.joined(separator: ", "))) }
            keys.forEach { print(line($0)) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the keys, oldest first: id, state, sealed or plaintext, created, superseded, retired."
        )
        @OptionGroup var options: ServerOptions
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func run() async throws {
            let keys = try await KeysCommand.withKeys(options) { try await $0.list() }
            try KeysCommand.output(keys, json: json)
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new active key; the old one keeps verifying its tokens until they expire.",
            discussion: """
                Previous keys superseded longer ago than the access-token lifetime plus two \
                refresh intervals are retired. --retire-previous retires every other key at once \
                (after a leak: every access token signed before is refused; refresh tokens still work).
                """
        )
        @OptionGroup var options: ServerOptions
        @Flag(help: "Retire every other key at once.") var retirePrevious = false
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func run() async throws {
            let (newKey, keys) = try await KeysCommand.withKeys(options) { try await $0.rotate(retirePrevious: retirePrevious) }
            try KeysCommand.output(keys, newKey: newKey, json: json)
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Retire a previous key: tokens it signed are refused; its secret is erased."
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "The key id (see `kindred keys list`).") var id: String
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func run() async throws {
            let keys = try await KeysCommand.withKeys(options) { try await $0.retire(id: id) }
            try KeysCommand.output(keys, json: json)
        }
    }

    struct Reseal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Seal every live key again under the configured key-encryption key (changing it in place).",
            discussion: """
                The new key-encryption key comes from KINDRED_KEY_ENCRYPTION_KEY (or …_FILE), the \
                old one from KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY (or …_FILE); never from a flag. \
                First restart every replica with both set, then run this, then remove the previous \
                key from every replica. Keys already sealed under the new key are left alone.
                """
        )
        @OptionGroup var options: ServerOptions
        @Flag(help: "Print JSON instead of tab-separated lines.") var json = false

        func run() async throws {
            let (resealed, keys) = try await KeysCommand.withKeys(options) { try await $0.reseal() }
            try KeysCommand.output(keys, resealed: resealed, json: json)
        }
    }
}
