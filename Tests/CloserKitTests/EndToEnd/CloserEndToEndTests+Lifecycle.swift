import CloserKit
import Foundation
import KindredClient
import KindredTestSupport
import Testing

/// The rest of a couple's life through `kindred closer`: a gentle reminder (once a day), leaving
/// (both phones are out of the couple afterwards), and an operator importing a question pack
/// that a restarted server serves.
extension CloserEndToEndTests {
    @Test(.timeLimit(.minutes(5)))
    func aNudgeIsSentOnceADayAndLeavingEndsTheCoupleForBoth() async throws {
        let server = try await LiveServer()
        let alice = phone("life/alice", server), bob = phone("life/bob", server)
        _ = try pair(alice, bob)
        #expect(try alice.succeed(["nudge"]) == "reminder sent\n")
        let again = try alice.succeed(["nudge"])
        #expect(again.wholeMatch(of: /not sent: you can nudge again in [1-9][0-9]* minutes\n/) != nil, "\(again)")
        #expect(try bob.succeed(["leave"]) == "left the couple\n")
        let notPaired = "Error: not in a couple: create or accept an invite first\n"
        #expect(try bob.run(["today"]).stderr == notPaired)
        #expect(try alice.run(["today"]).stderr == notPaired)
        #expect(try alice.run(["nudge"]).status != 0)
        // Both may pair again: the old couple is gone.
        let invite = try bob.succeed(["invite"])
        let share = try #require(invite.split(separator: "\n").last.map(String.init))
        #expect(try alice.succeed(["accept", share]).hasPrefix("paired: couple "))
        #expect(await server.stop().status == 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func anImportedPackIsServedAfterARestart() async throws {
        let database = "sqlite:\(folder.url.path)/import.sqlite"
        let catalog = folder.url.appendingPathComponent("winter.json")
        try Data(#"""
            {"format":"kindred-closer-catalog","version":1,
             "categories":[{"id":"seasons","name":"Seasons"}],
             "packs":[{"id":"winter","title":"Winter","description":"Cold nights.","isPremium":false,
               "questions":[{"id":"winter-001","categoryId":"seasons","text":"What is your favourite winter smell?"},
                            {"id":"winter-002","categoryId":"seasons","text":"Which winter tradition should we start?"}]}]}
            """#.utf8).write(to: catalog)
        let imported = try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["closer", "questions", "import", catalog.path, "--database-url", database],
            environment: CloserPhone.environment
        )
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.text.hasPrefix("imported 1 pack(s) with 2 question(s): winter; the catalog now has "))
        let broken = try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["closer", "questions", "import", "/nonexistent.json", "--database-url", database],
            environment: CloserPhone.environment
        )
        #expect(broken.status != 0)
        #expect(broken.stderr.contains("cannot read /nonexistent.json"))

        let server = try await LiveServer(databaseURL: database)
        let reader = phone("import/reader", server)
        try reader.signUp("reader")
        let session = KindredSession(
            serverURL: server.url, app: .closer, store: FileTokenStore(profileDirectory: URL(fileURLWithPath: reader.profile))
        )
        let served = try await session.authorizedCall(with: session.closerClient) { try await $0.getCloserCatalog(headers: .init(xKindredApp: .closer)) }
        let winter = try #require(try served.ok.body.json.packs.first { $0.id == "winter" })
        #expect(winter.title == "Winter")
        #expect(winter.questionCount == 2)
        #expect(winter.isPremium == false)
        #expect(await server.stop().status == 0)
    }
}
