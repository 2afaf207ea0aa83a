import KindredAPI
import ArgumentParser
import Foundation
import KindredClient

/// `kindred account whoami [--json]`: the signed-in account, as the server sees it.
struct AccountWhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the profile's signed-in account (GET /v1/me)."
    )

    @OptionGroup var options: AccountOptions

    @Flag(help: "Print the account as JSON (the API's User object).")
    var json = false

    func run() async throws {
        let (session, _) = try options.session()
        let user: Components.Schemas.User
        do {
            user = try await session.me()
        } catch {
            throw CommandFailure(error.description)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            StandardIO.writeLine(String(decoding: try encoder.encode(user), as: UTF8.self))
            return
        }
        var lines = [
            "id: \(user.id)",
            "app: \(user.app.rawValue)",
            "anonymous: \(user.isAnonymous ? "yes" : "no")",
            "providers: \(user.providers.isEmpty ? "(none)" : user.providers.map(\.rawValue).joined(separator: ", "))",
        ]
        let optional: [(String, String?)] = [
            ("email", user.email), ("displayName", user.displayName), ("firstName", user.firstName),
            ("lastName", user.lastName), ("photoURL", user.photoURL), ("timeZone", user.timeZone), ("locale", user.locale),
        ]
        lines += optional.compactMap { name, value in value.map { "\(name): \($0)" } }
        lines.append("createdAt: \(user.createdAt.formatted(.iso8601))")
        StandardIO.writeLine(lines.joined(separator: "\n"))
    }
}

/// `kindred account logout`: revokes the session on the server and forgets it.
struct AccountLogOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke the profile's session on the server and remove it from the profile."
    )

    @OptionGroup var options: AccountOptions

    func run() async throws {
        let (session, _) = try options.session()
        do {
            try await session.logOut()
        } catch {
            throw CommandFailure(error.description)
        }
        StandardIO.writeLine("logged out")
    }
}
