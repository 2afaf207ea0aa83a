import Foundation
import KindredTestSupport
import Testing

/// Two phones (`kindred closer checkin|capsule … --json`, each with its own `--profile`) against
/// a live `kindred serve`: both answer the day-0 check-in and read each other's answers, day 30
/// is refused as not due, and a capsule sealed by one phone stays locked for both until its time
/// (the server's real clock: the capsule unlocks a minute and a few seconds later), then opens
/// on the other phone. Neither answer nor capsule is in plaintext in the server's database.
@Suite(.serialized) struct CloserOverTimeEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test(.timeLimit(.minutes(4)))
    func twoPhonesCheckInAndOpenACapsuleOnItsTime() async throws {
        let server = try await LiveServer()
        do {
            try await flow(server)
        } catch {
            _ = await server.stop()
            throw error
        }
        let database = String(server.databaseURL.dropFirst("sqlite:".count))
        let stopped = await server.stop()
        #expect(stopped.status == 0)
        var stored = Data()
        for suffix in ["", "-wal"] { stored.append((try? Data(contentsOf: URL(fileURLWithPath: database + suffix))) ?? Data()) }
        for needle in ["hopeful about us", "steady and happy", "the lake at dawn", "Our first summer"] {
            #expect(stored.range(of: Data(needle.utf8)) == nil, "the database holds \(needle)")
            #expect(!stopped.stderr.contains(needle), "the log holds \(needle)")
        }
    }

    func flow(_ server: LiveServer) async throws {
        let alice = CloserPhone(profile: folder.url.appendingPathComponent("alice").path, server: server.url)
        let bob = CloserPhone(profile: folder.url.appendingPathComponent("bob").path, server: server.url)
        try alice.signUp("alice")
        try bob.signUp("bob")
        let share = try #require(try alice.succeed(["invite"]).split(separator: "\n").last.map(String.init))
        #expect(try bob.succeed(["accept", share]).hasPrefix("paired: couple "))

        // Check-ins: day 0 is due for both; each answers once; both read both.
        let due = try alice.json(["checkin", "due"])["checkIns"] as? [[String: Any]] ?? []
        #expect(due.compactMap { $0["key"] as? String } == ["day_0"])
        let answered = try alice.json(["checkin", "answer", "day_0", "hopeful about us"])
        #expect(answered["key"] as? String == "day_0")
        #expect(try alice.failure(["checkin", "answer", "day_0", "again"]).code == "outcome_exists")
        #expect(try alice.failure(["checkin", "answer", "day_30", "too soon"]).code == "outcome_not_due")
        #expect(try alice.failure(["checkin", "answer", "day_7", "no such"]).code == "invalid_outcome_key")
        // Bob's answers from standard input.
        let piped = try ChildProcess.run(
            ChildProcess.kindredExecutable.path,
            ["closer", "checkin", "answer", "day_0", "--json", "--profile", bob.profile, "--server", bob.server.absoluteString],
            input: Array("steady and happy\n".utf8), environment: CloserPhone.environment
        )
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect((try bob.json(["checkin", "due"])["checkIns"] as? [Any])?.isEmpty == true)
        for phone in [alice, bob] {
            let shown = try phone.json(["checkin", "show"])["checkIns"] as? [[String: Any]] ?? []
            #expect(shown.count == 4)
            let answers = shown.first?["answers"] as? [String: String] ?? [:]
            #expect(Set(answers.values) == ["hopeful about us", "steady and happy"])
        }

        // A capsule unlocking a minute and five seconds from now.
        let unlock = Date().addingTimeInterval(65)
        let unlockText = ISO8601DateFormatter().string(from: unlock)
        let sealed = try alice.json(["capsule", "create", "--title", "Our first summer", "--unlock-at", unlockText, "the lake at dawn"])
        let capsuleID = try #require(sealed["id"] as? String)
        #expect(sealed["locked"] as? Bool == true && sealed["content"] == nil)
        let listed = try bob.json(["capsule", "list"])["capsules"] as? [[String: Any]] ?? []
        #expect(listed.count == 1 && listed.first?["title"] as? String == "Our first summer" && listed.first?["locked"] as? Bool == true)
        #expect(try bob.failure(["capsule", "open", capsuleID]).code == "capsule_locked")
        #expect(try bob.failure(["capsule", "delete", capsuleID]).code == "not_owner")
        #expect(try alice.failure(["capsule", "create", "--title", "x", "--unlock-at", "tomorrow", "y"]).code == "invalid_input")

        let wait = unlock.timeIntervalSinceNow + 1.5
        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
        let opened = try bob.json(["capsule", "open", capsuleID])
        #expect(opened["content"] as? String == "the lake at dawn" && opened["title"] as? String == "Our first summer")
        #expect(try alice.failure(["capsule", "delete", capsuleID]).code == "capsule_unlocked")
        #expect(try bob.succeed(["capsule", "list"]).contains("[open]   \(capsuleID)  Our first summer"))
    }
}
