import Foundation
import KindredTestSupport
import Testing

/// `kindred pulse` for a simulated subscriber, end to end: sign up (password on standard
/// input), status, sync, watch, and one clear line for bad input.
@Suite(.serialized) struct PulseCommandLiveTests {
    /// Runs `kindred pulse ARGS --profile DIR --server URL`.
    static func pulse(_ arguments: [String], profile: URL, server: URL, stdin: String = "") throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
        environment["KINDRED_LOG_LEVEL"] = "error"
        return try ChildProcess.run(
            ChildProcess.kindredExecutable.path,
            ["pulse"] + arguments + ["--profile", profile.path, "--server", server.absoluteString],
            input: Array(stdin.utf8), environment: environment
        )
    }

    /// The one JSON object of a `--json` run.
    static func object(_ result: ChildProcess.Result) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout))
        return try #require(parsed as? [String: Any], "\(result.text)")
    }

    @Test(.timeLimit(.minutes(4)))
    func aSubscriberSignsUpSyncsAndWatchesFromTheShell() async throws {
        try await PulseServer.run { pulse in
            let folder = try TemporaryDirectory()
            let url = pulse.server.url
            let signUp = try Self.pulse(
                ["signup", "--email", "shell@example.com", "--password-stdin", "--json"], profile: folder.url, server: url,
                stdin: "correct horse battery staple\n"
            )
            #expect(signUp.status == 0, "\(signUp.stderr)")
            let user = try #require(try Self.object(signUp)["userId"] as? String)

            let unknown = try Self.pulse(["status", "--json"], profile: folder.url, server: url)
            #expect(unknown.status == 0, "\(unknown.stderr)")
            let unknownObject = try Self.object(unknown)
            #expect(unknownObject["state"] as? String == "unknown")
            #expect(unknownObject["grantsAccess"] as? Bool == false)
            #expect(unknownObject["source"] as? String == "server")

            let ends = nowSeconds + 30 * 86_400
            pulse.fake.subscribe(customer: user, id: "sub-shell", endsAt: ends)
            let synced = try Self.pulse(["sync", "--json"], profile: folder.url, server: url)
            #expect(synced.status == 0, "\(synced.stderr)")
            let syncedObject = try Self.object(synced)
            #expect(syncedObject["state"] as? String == "active")
            #expect((syncedObject["latestExpiration"] as? NSNumber)?.int64Value == ends)
            #expect(syncedObject["syncErrors"] as? [String] == [])

            let text = try Self.pulse(["status"], profile: folder.url, server: url)
            #expect(text.text == "active until \(Date(timeIntervalSince1970: TimeInterval(ends)).formatted(.iso8601)) (server)\n")

            let watched = try Self.pulse(["watch", "--count", "1", "--json"], profile: folder.url, server: url)
            #expect(watched.status == 0, "\(watched.stderr)")
            #expect(try Self.object(watched)["state"] as? String == "active")

            let badApp = try Self.pulse(["status", "--app", "myspace"], profile: folder.url, server: url)
            #expect(badApp.status != 0)
            #expect(badApp.stderr.contains("--app must be one of closer, soulmate, streaksync, exeraser, pulse"))
            let badCount = try Self.pulse(["watch", "--count", "0"], profile: folder.url, server: url)
            #expect(badCount.status != 0)
            #expect(badCount.stderr.contains("--count must be at least 1"))
            let noPassword = try Self.pulse(["login", "--email", "shell@example.com"], profile: folder.url, server: url)
            #expect(noPassword.status != 0)
            #expect(noPassword.stderr.contains("no password: set KINDRED_PASSWORD or pass --password-stdin"))

            let out = try Self.pulse(["logout", "--json"], profile: folder.url, server: url)
            #expect(out.status == 0, "\(out.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("pulse-access.json").path))
            let signedOut = try Self.pulse(["status", "--json"], profile: folder.url, server: url)
            #expect(try Self.object(signedOut)["source"] as? String == "failure")
            #expect(try Self.object(signedOut)["grantsAccess"] as? Bool == false)
        }
    }
}
