import ArgumentParser
import Foundation
import KindredClient
import StreakClient
import StreakKit

/// What every `streaks` command that uses a profile takes.
struct StreaksOptions: ParsableArguments {
    @Option(help: "The profile folder of this device (default: $KINDRED_PROFILE or ./profiles/default).")
    var profile: String?

    @Option(help: "The server's base URL (default: the profile's, else \(AccountOptions.defaultServer)).")
    var server: String?

    @Flag(help: "Print one JSON document on standard output.")
    var json = false

    /// The profile folder.
    var profileURL: URL {
        URL(fileURLWithPath: profile ?? ProcessInfo.processInfo.environment["KINDRED_PROFILE"] ?? "profiles/default")
    }

    /// The profile's store, for the commands that need no server.
    func store() throws -> StreakStore {
        do {
            return try StreakStore.profile(at: profileURL)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The device of this profile (its session and store), and the profile to remember.
    func device() throws -> (StreakDevice, AccountProfile) {
        let remembered = try AccountProfile.load(from: profileURL)
        let text = server ?? remembered?.serverURL.absoluteString ?? AccountOptions.defaultServer
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw CommandFailure("--server: \"\(text)\" is not an http(s) URL")
        }
        let session = KindredSession(serverURL: url, app: .streaksync, store: FileTokenStore(profileDirectory: profileURL))
        do {
            return (try StreakDevice.profile(at: profileURL, session: session), AccountProfile(app: .streaksync, serverURL: url))
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The zone results are recorded in: the profile's setting, else the system's.
    func timeZone(_ store: StreakStore) throws(StreakStoreError) -> TimeZone {
        try store.settings().timeZone()
    }

    /// Prints `object` as JSON (with --json) or `lines` (otherwise).
    func output(_ lines: @autoclosure () -> String, json object: [String: Any]) {
        if json {
            StandardIO.writeLine(ChatOptions.encode(object))
        } else {
            let text = lines()
            if !text.isEmpty { StandardIO.writeLine(text) }
        }
    }

    /// Runs a command's body: every kit's error becomes one line on standard error (with its code),
    /// and with --json also `{"error":{"code","message"}}` on standard output; the exit is non-zero.
    func run(_ body: () async throws -> Void) async throws {
        let failure: (code: String, message: String)
        do {
            try await body()
            return
        } catch let error as StreakClientError {
            failure = (error.code, error.description)
        } catch let error as StreakStoreError {
            failure = (error.code, error.description)
        } catch let error as StreakKitError {
            failure = (error.code, error.description)
        } catch let error as KindredClientError {
            failure = (StreakClientError.client(error).code, error.description)
        } catch let error as StreaksChartError {
            failure = (error.code, error.description)
        }
        if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": failure.code, "message": failure.message]])) }
        throw CommandFailure("\(failure.message) [\(failure.code)]")
    }
}

/// Writes a line to standard error (progress, never data).
func writeErrorLine(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// JSON and text forms of the store's values, shared by the `streaks` commands.
enum StreaksFormat {
    /// A result: the share's fields (as `parse` prints them), its id, day and recording time.
    static func object(_ result: GameResult) -> [String: Any] {
        var object = StreaksParseCommand.object(result.share)
        object["id"] = result.id.rawValue
        object["day"] = result.day.description
        object["recordedAt"] = StoredDate.text(result.recordedAt)
        object["timeZone"] = result.timeZoneIdentifier
        return object
    }

    /// One line of a result.
    static func line(_ result: GameResult, catalog: GameCatalog) -> String {
        let name = catalog.game(result.game)?.name ?? result.game.rawValue
        let puzzle = result.puzzle.map { " #\($0)" } ?? ""
        let variant = result.variant.map { " (\($0))" } ?? ""
        return "\(result.day)  \(name)\(puzzle)\(variant): \(result.completed ? "completed" : "failed"), score \(result.score) (max \(result.maxScore))"
    }

    /// A streak, with its status at `now` in `timeZone`.
    static func object(_ streak: Streak, now: Date, timeZone: TimeZone) -> [String: Any] {
        [
            "game": streak.game.rawValue, "current": streak.current, "longest": streak.longest,
            "cadence": streak.cadence.rawValue, "lastPlayed": orNull(streak.lastPlayed?.day.description),
            "status": streak.status(now: now, timeZone: timeZone).rawValue,
        ]
    }

    /// A tier reached.
    static func object(_ unlock: TierUnlock) -> [String: Any] {
        ["id": unlock.id.rawValue, "category": unlock.category.rawValue, "tier": unlock.tier.key,
         "title": unlock.category.title, "unlockedAt": StoredDate.text(unlock.unlockedAt)]
    }

    /// One line of a tier reached.
    static func line(_ unlock: TierUnlock) -> String {
        "🏆 \(unlock.category.title) — \(unlock.tier.key.capitalized)"
    }
}
