import CloserKit
import Foundation
import KindredClient
import KindredCrypto
import KindredTestSupport
import Testing

/// The HTTP requests of one Closer cycle (what scripts/bench-closer measures), counted by the
/// devices over a live `kindred serve`: 10 with warm caches, each step exactly as docs/closer.md
/// lists it.
@Suite struct CloserRoundTripCountTests {
    /// A phone in memory (tokens, secure store, pending keys in `folder`).
    func device(_ name: String, server: URL, folder: TemporaryDirectory) throws -> CloserDevice {
        let secure = InMemorySecureStore()
        let session = KindredSession(serverURL: server, app: .closer, store: MemoryTokenStore())
        let pending = try PendingKeyStore(url: folder.url.appendingPathComponent("\(name).sqlite"), secureStore: secure)
        return CloserDevice(session: session, secureStore: secure, pending: pending, platform: .linux,
                            kdfParameters: try CloserKDFParameters(memoryKiB: 64, iterations: 1, parallelism: 1))
    }

    /// Requests `body` made on `device`.
    func requests(_ device: CloserDevice, _ body: () async throws -> Void) async rethrows -> Int {
        let before = device.cache.requestCount
        try await body()
        return device.cache.requestCount - before
    }

    @Test(.timeLimit(.minutes(2)))
    func aCycleWithWarmCachesIsTenRequests() async throws {
        let folder = try TemporaryDirectory()
        let server = try await LiveServer()
        let alice = try device("alice", server: server.url, folder: folder), bob = try device("bob", server: server.url, folder: folder)
        _ = try await alice.session.signUp(email: "alice@example.com", password: "correct horse alice", displayName: "alice")
        _ = try await bob.session.signUp(email: "bob@example.com", password: "correct horse bob", displayName: "bob")
        try await bob.acceptInvite(try await alice.createInvite().share)
        _ = try await alice.today()
        // Cold: the couple and both device lists, once.
        #expect(try await requests(alice) { try await alice.refreshCache() } == 3)
        #expect(try await requests(bob) { try await bob.refreshCache() } == 3)

        #expect(try await requests(alice) { try await alice.answer("alice's answer") } == 2)
        #expect(try await requests(bob) { try await bob.answer("bob's answer") } == 2)
        var state: RevealState?
        #expect(try await requests(alice) { state = try await alice.reveal().state } == 2)
        #expect(state == .releasingKeys)
        #expect(try await requests(bob) { state = try await bob.reveal().state } == 2)
        #expect(state == .revealed(mine: "bob's answer", partner: "alice's answer"))
        #expect(try await requests(alice) { state = try await alice.reveal().state } == 2)
        #expect(state == .revealed(mine: "alice's answer", partner: "bob's answer"))
        // Opened and recorded: a further look is one read.
        #expect(try await requests(bob) { state = try await bob.reveal().state } == 1)
        #expect(state == .revealed(mine: "bob's answer", partner: "alice's answer"))
        #expect(await server.stop().status == 0)
    }

    /// A device registered after the partners cached the device lists still gets its keyboxes:
    /// the release's `missingRecipients` names it and a second upload covers it.
    @Test(.timeLimit(.minutes(2)))
    func aDeviceTheCachesLackGetsItsKeyboxesFromMissingRecipients() async throws {
        let folder = try TemporaryDirectory()
        let server = try await LiveServer()
        let alice = try device("alice", server: server.url, folder: folder), bob = try device("bob", server: server.url, folder: folder)
        _ = try await alice.session.signUp(email: "alice@example.com", password: "correct horse alice", displayName: "alice")
        _ = try await bob.session.signUp(email: "bob@example.com", password: "correct horse bob", displayName: "bob")
        try await bob.acceptInvite(try await alice.createInvite().share)
        _ = try await alice.today()
        try await alice.refreshCache()
        try await bob.refreshCache()
        try await alice.answer("alice's answer")
        try await bob.answer("bob's answer")

        // bob's tablet joins after both caches were filled.
        let tablet = try device("bob-tablet", server: server.url, folder: folder)
        _ = try await tablet.session.logIn(email: "bob@example.com", password: "correct horse bob")
        try await tablet.recover(phrase: try bob.phrase().normalized)

        var state: RevealState?
        // GET the date, POST the keyboxes the cache knows of, POST the one for the tablet.
        #expect(try await requests(alice) { state = try await alice.reveal().state } == 3)
        #expect(state == .releasingKeys)
        #expect(try await requests(bob) { state = try await bob.reveal().state } == 3)
        #expect(state == .revealed(mine: "bob's answer", partner: "alice's answer"))
        state = try await tablet.reveal().state
        #expect(state == .revealed(mine: "bob's answer", partner: "alice's answer"))
        #expect(await server.stop().status == 0)
    }
}
