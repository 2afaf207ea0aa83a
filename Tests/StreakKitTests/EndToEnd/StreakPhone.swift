import Foundation
import KindredTestSupport

/// One simulated StreakSync device: `kindred streaks …` with its own `--profile` folder against a
/// live server, in UTC, the password on standard input (never a flag).
struct StreakPhone {
    static let environment: [String: String] = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
        .merging(["TZ": "UTC"]) { $1 }

    let profile: String
    let server: URL
    /// The account's e-mail address.
    let email: String

    /// Runs `kindred streaks ARGS --profile P [--server S] [--json]`.
    func run(_ arguments: [String], json: Bool = false, password: String? = nil, server override: String? = nil) throws -> ChildProcess.Result {
        var all = ["streaks"] + arguments + ["--profile", profile, "--server", override ?? server.absoluteString]
        if json { all.append("--json") }
        if password != nil { all.append("--password-stdin") }
        return try ChildProcess.run(
            ChildProcess.kindredExecutable.path, all, input: password.map { Array("\($0)\n".utf8) } ?? [],
            environment: Self.environment
        )
    }

    /// A command that must succeed with `--json`; its document.
    @discardableResult
    func json(_ arguments: [String], password: String? = nil) throws -> [String: Any] {
        let result = try run(arguments, json: true, password: password)
        guard result.status == 0 else {
            throw Failure(description: "kindred streaks \(arguments.joined(separator: " ")) --json exited \(result.status): \(result.stderr)")
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(result.text)")
        }
        return object
    }

    /// A command that must fail with `--json`: the server's (or the kit's) error code.
    func failure(_ arguments: [String], server override: String? = nil) throws -> String {
        let result = try run(arguments, json: true, server: override)
        guard result.status != 0 else { throw Failure(description: "kindred streaks \(arguments.joined(separator: " ")) succeeded: \(result.text)") }
        let object = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any]
        return ((object?["error"] as? [String: Any])?["code"] as? String) ?? "?"
    }

    var password: String { "correct horse \(email)" }

    /// A command that failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
