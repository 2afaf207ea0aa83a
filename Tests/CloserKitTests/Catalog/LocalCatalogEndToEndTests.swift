import CloserKit
import Foundation
import KindredClient
import KindredTestSupport
import Testing

/// The local question catalog against a live `kindred serve`: downloaded once, not downloaded
/// again while the server's catalog version is unchanged, downloaded again when an imported pack
/// changes it, and today's question shown from the cached assignment while the server is down.
@Suite(.serialized) struct LocalCatalogEndToEndTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// The phone's device; `offline` gives it no network.
    func device(_ phone: CloserPhone, offline: Bool = false) throws -> CloserDevice {
        let profile = URL(fileURLWithPath: phone.profile)
        let session = offline
            ? KindredSession(serverURL: phone.server, app: .closer, store: FileTokenStore(profileDirectory: profile), transport: OfflineTransport())
            : KindredSession(serverURL: phone.server, app: .closer, store: FileTokenStore(profileDirectory: profile))
        return try CloserDevice.profile(at: profile, session: session, environment: CloserPhone.environment)
    }

    @Test(.timeLimit(.minutes(5)))
    func todaysQuestionShowsOfflineAndTheCatalogRefreshesOnlyOnAVersionChange() async throws {
        let database = "sqlite:\(folder.url.path)/catalog.sqlite"
        let server = try await LiveServer(databaseURL: database)
        let alice = CloserPhone(profile: folder.url.appendingPathComponent("alice").path, server: server.url)
        let bob = CloserPhone(profile: folder.url.appendingPathComponent("bob").path, server: server.url)
        try alice.signUp("alice")
        try bob.signUp("bob")
        let share = try #require(try alice.succeed(["invite"]).split(separator: "\n").last.map(String.init))
        #expect(try bob.succeed(["accept", share]).hasPrefix("paired: couple "))

        let store = LocalCatalogStore(profileDirectory: URL(fileURLWithPath: alice.profile))
        #expect(try store.load() == LocalQuestionCatalog())
        let phone = try device(alice)
        #expect(try await phone.refreshCatalog(in: store))
        let first = try store.load()
        let version = try #require(first.version)
        #expect(first.questions.count > 10)
        #expect(first.today == nil)
        // An unchanged version: one request (the catalog), nothing downloaded, nothing rewritten.
        let before = phone.cache.requestCount
        #expect(try await phone.refreshCatalog(in: store) == false)
        #expect(phone.cache.requestCount == before + 1)
        #expect(try store.load() == first)

        let online = try await phone.todaysQuestion(in: store)
        #expect(online.offline == false)
        let text = try #require(first.questions[online.questionId]?.text)
        #expect(online.questionText == text)
        #expect(try store.load().today?.questionId == online.questionId)
        #expect(try store.load().today?.date == online.date)

        // The server is down and the phone offline: a fresh device (nothing in memory) still shows today's question.
        #expect(await server.stop().status == 0)
        let offline = try await device(alice, offline: true).todaysQuestion(in: store)
        #expect(offline == CloserLocalDay(date: online.date, questionId: online.questionId, questionText: text, offline: true))
        // Bob's device never saw an assignment: offline, there is nothing to show.
        let bobStore = LocalCatalogStore(profileDirectory: URL(fileURLWithPath: bob.profile))
        await #expect(throws: CloserKitError.noQuestion) { try await device(bob, offline: true).todaysQuestion(in: bobStore) }
        // Nor can the catalog be refreshed: the stored copy stays as it was.
        await #expect(throws: CloserKitError.self) { try await device(alice, offline: true).refreshCatalog(in: store) }
        #expect(try store.load().version == version)

        // An operator imports a pack; after the restart the version differs and the device downloads.
        let pack = folder.url.appendingPathComponent("winter.json")
        try Data(#"""
            {"format":"kindred-closer-catalog","version":1,
             "categories":[{"id":"seasons","name":"Seasons"}],
             "packs":[{"id":"winter","title":"Winter","description":"Cold nights.","isPremium":false,
               "questions":[{"id":"winter-001","categoryId":"seasons","text":"What is your favourite winter smell?"}]}]}
            """#.utf8).write(to: pack)
        let imported = try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["closer", "questions", "import", pack.path, "--database-url", database],
            environment: CloserPhone.environment
        )
        #expect(imported.status == 0, "\(imported.stderr)")
        try await server.start()
        let restarted = try device(alice)
        #expect(try await restarted.refreshCatalog(in: store))
        #expect(restarted.cache.requestCount > 2)
        let second = try store.load()
        #expect(second.version != version)
        #expect(second.questions["winter-001"] == .init(
            id: "winter-001", packId: "winter", categoryId: "seasons", text: "What is your favourite winter smell?"
        ))
        #expect(second.questions.count == first.questions.count + 1)
        #expect(second.today?.questionId == online.questionId)
        #expect(try await restarted.refreshCatalog(in: store) == false)
        #expect(await server.stop().status == 0)
    }
}
