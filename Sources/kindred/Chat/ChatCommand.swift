import ArgumentParser
import Foundation
import KindredAPI
import KindredClient
import SoulMateKit

/// `kindred chat …`: one simulated SoulMate phone per `--profile` folder.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "SoulMate: a simulated phone that signs up, pairs by code, chats end-to-end encrypted and unpairs with consent.",
        discussion: """
            Each --profile folder is one phone: its session, its secure store (identity key, pair-key \
            cache, local-store key; secure-store.bin and secure-store.key, or KINDRED_PROFILE_PASSPHRASE) \
            and its local message store (local_messages.sqlite, payloads encrypted at rest). Messages \
            are sealed on the phone; the server holds ciphertext only until the partner's phone \
            acknowledges it. Output is in --lang (tr or en; default from LANG); --json prints one JSON \
            document on standard output for scripts. Passwords come from standard input \
            (--password-stdin) or KINDRED_PASSWORD, never from a flag.
            """,
        subcommands: [
            ChatSignUpCommand.self, ChatLogInCommand.self, ChatLogOutCommand.self, ChatTakeOverCommand.self,
            ChatProfileCommand.self, ChatRouteCommand.self,
            ChatCodeCommand.self, ChatRequestCommand.self, ChatRequestsCommand.self, ChatAcceptCommand.self,
            ChatRejectCommand.self, ChatCancelCommand.self, ChatUnpairCommand.self,
            ChatSendCommand.self, ChatEmojiCommand.self, ChatGIFCommand.self, ChatHeartCommand.self, ChatSyncCommand.self,
            ChatHistoryCommand.self, ChatOpenCommand.self, ChatLocationCommand.self, ChatStatusCommand.self,
        ]
    )
}

/// What every `chat` command takes.
struct ChatOptions: ParsableArguments {
    @Option(help: "The profile folder of this phone (default: $KINDRED_PROFILE or ./profiles/default).")
    var profile: String?

    @Option(help: "The server's base URL (default: the profile's, else \(AccountOptions.defaultServer)).")
    var server: String?

    @Option(help: "The language of the output: tr or en (default: from LANG).")
    var lang: String?

    @Flag(help: "Print one JSON document on standard output.")
    var json = false

    /// The profile folder.
    var profileURL: URL {
        URL(fileURLWithPath: profile ?? ProcessInfo.processInfo.environment["KINDRED_PROFILE"] ?? "profiles/default")
    }

    /// The strings of the chosen language.
    var strings: SoulMateStrings {
        if let lang { return SoulMateStrings(locale: lang) }
        return SoulMateStrings(locale: ProcessInfo.processInfo.environment["LANG"] ?? "en")
    }

    /// Checks `--lang`.
    func validate() throws {
        if let lang, !["tr", "en"].contains(lang.lowercased()) {
            throw ValidationError("--lang must be tr or en")
        }
    }

    /// The phone of this profile, and the profile to remember.
    func device(deviceName: String? = nil) throws -> (SoulMateDevice, AccountProfile) {
        let remembered = try AccountProfile.load(from: profileURL)
        let text = server ?? remembered?.serverURL.absoluteString ?? AccountOptions.defaultServer
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw CommandFailure("--server: \"\(text)\" is not an http(s) URL")
        }
        let session = KindredSession(serverURL: url, app: .soulmate, store: FileTokenStore(profileDirectory: profileURL))
        do {
            let device = try SoulMateDevice.profile(
                at: profileURL, session: session, environment: ProcessInfo.processInfo.environment, deviceName: deviceName
            )
            return (device, AccountProfile(app: .soulmate, serverURL: url))
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Prints `object` as JSON (with --json) or `line` (otherwise).
    func output(_ line: @autoclosure () -> String, json object: [String: Any]) {
        if json {
            StandardIO.writeLine(Self.encode(object))
        } else {
            StandardIO.writeLine(line())
        }
    }

    static func encode(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a command's body: SoulMateKit's errors become one line in the chosen language (with
    /// the server's code), and with --json also `{"error":{"code","message"}}` on standard output.
    func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as SoulMateKitError {
            let message = strings.message(for: error)
            let code = error.serverCode ?? Self.code(of: error)
            if json { StandardIO.writeLine(Self.encode(["error": ["code": code, "message": message, "detail": error.description]])) }
            throw CommandFailure("\(message) [\(code)]")
        } catch let error as KindredClientError {
            let message = strings.message(for: error)
            let code = error.serverCode ?? "client"
            if json { StandardIO.writeLine(Self.encode(["error": ["code": code, "message": message, "detail": error.description]])) }
            throw CommandFailure("\(message) [\(code)]")
        }
    }

    /// A stable code for a device-side error.
    static func code(of error: SoulMateKitError) -> String {
        switch error {
        case .storeOpen, .storeRead, .storeWrite, .wrongKey, .corruptRow: "local_store"
        case .messageNotFound: "message_not_found"
        case .emptyMessage, .messageTooLong, .notEmoji, .invalidGIF, .invalidInput: "invalid_input"
        case .invalidLocation: "invalid_location"
        case .crypto: "crypto"
        case .client(let client): client.serverCode ?? "network"
        case .secureStore: "secure_store"
        case .sessionLocked: "session_locked"
        case .logoutRefused: "logout_refused"
        case .notPaired: "not_paired"
        case .invalidServerData: "invalid_server_data"
        }
    }
}

/// ISO 8601 text of a date, for JSON.
func iso(_ date: Date?) -> Any {
    guard let date else { return NSNull() }
    return date.formatted(.iso8601)
}

/// A value for JSON, or null.
func orNull(_ value: (any Sendable)?) -> Any {
    guard let value else { return NSNull() }
    return value
}
