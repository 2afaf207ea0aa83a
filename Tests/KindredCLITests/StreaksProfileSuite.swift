import Foundation
import KindredTestSupport
import Testing

/// A suite that runs `kindred streaks` on one profile folder, without a server.
protocol StreaksProfileSuite {
    /// The folder the profile lives in.
    var folder: TemporaryDirectory { get }
}

extension StreaksProfileSuite {
    /// The profile folder.
    var profile: String { folder.url.appendingPathComponent("phone").path }

    /// Runs `kindred streaks ARGS --profile PROFILE` in UTC, without the caller's `KINDRED_*` settings.
    func streaks(_ arguments: [String], stdin: String = "") throws -> ChildProcess.Result {
        try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["streaks"] + arguments + ["--profile", profile], input: Array(stdin.utf8),
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }.merging(["TZ": "UTC"]) { $1 })
    }

    /// Runs a command with `--json`, expects success and returns its JSON object.
    func json(_ arguments: [String], stdin: String = "") throws -> [String: Any] {
        let result = try streaks(arguments + ["--json"], stdin: stdin)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
    }
}
