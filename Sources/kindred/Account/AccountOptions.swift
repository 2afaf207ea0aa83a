import KindredAPI
import ArgumentParser
import Foundation
import KindredClient

/// The options every `account` command takes: which profile, app and server.
struct AccountOptions: ParsableArguments {
    /// The server used when neither the flag nor the profile names one.
    static let defaultServer = "http://127.0.0.1:8080"

    @Option(help: "The app: closer, soulmate, streaksync, exeraser or pulse (default: the profile's).")
    var app: String?

    @Option(help: "The profile folder holding this device's session (default: $KINDRED_PROFILE or ./profiles/default).")
    var profile: String?

    @Option(help: "The server's base URL (default: the profile's, else \(Self.defaultServer)).")
    var server: String?

    /// The profile folder.
    var profileURL: URL {
        let path = profile ?? ProcessInfo.processInfo.environment["KINDRED_PROFILE"] ?? "profiles/default"
        return URL(fileURLWithPath: path)
    }

    /// The app and server from the flags, else from the profile, else the defaults.
    /// - Throws: `CommandFailure` for an unknown app, a bad URL, or no app anywhere.
    func resolve() throws -> AccountProfile {
        let remembered = try AccountProfile.load(from: profileURL)
        guard let appName = app ?? remembered?.app.rawValue else {
            throw CommandFailure("no app: pass --app (\(Self.appNames))")
        }
        guard let appID = Components.Schemas.AppID(rawValue: appName) else {
            throw CommandFailure("--app: unknown app \"\(appName)\" (\(Self.appNames))")
        }
        let serverText = server ?? remembered?.serverURL.absoluteString ?? Self.defaultServer
        guard let url = URL(string: serverText), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw CommandFailure("--server: \"\(serverText)\" is not an http(s) URL")
        }
        return AccountProfile(app: appID, serverURL: url)
    }

    /// The session for the resolved app and server, with its tokens in the profile.
    func session() throws -> (KindredSession, AccountProfile) {
        let resolved = try resolve()
        let session = KindredSession(
            serverURL: resolved.serverURL, app: resolved.app, store: FileTokenStore(profileDirectory: profileURL)
        )
        return (session, resolved)
    }

    private static var appNames: String {
        Components.Schemas.AppID.allCases.map(\.rawValue).joined(separator: ", ")
    }
}

/// What a profile remembers besides its session: the app and server last signed in to
/// (`profile.json`, beside `session.json`).
struct AccountProfile: Codable, Equatable {
    /// The file name in the profile folder.
    static let fileName = "profile.json"

    /// The app.
    var app: Components.Schemas.AppID
    /// The server's base URL.
    var serverURL: URL

    /// The remembered app and server, or `nil` when the profile has none.
    static func load(from folder: URL) throws -> AccountProfile? {
        do {
            guard let data = try ProfileDirectory(url: folder).read(fileName) else { return nil }
            return try JSONDecoder().decode(AccountProfile.self, from: data)
        } catch let error as KindredClientError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("\(folder.appendingPathComponent(fileName).path) is not a profile")
        }
    }

    /// Remembers this app and server in `folder`.
    func save(in folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try ProfileDirectory(url: folder).write(Self.fileName, try encoder.encode(self))
        } catch let error as KindredClientError {
            throw CommandFailure(error.description)
        }
    }
}
