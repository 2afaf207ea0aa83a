import Foundation
import KindredClient
import KindredTestSupport
import StreakClient
import StreakKit
import Testing

/// Guest mode: the host's data set aside and restored exactly, the guest's dropped, nothing synced.
@Suite struct StreakStoreGuestTests {
    let day = Fixtures.monday

    /// A host with results, achievements, a celebration shown, settings, a sync cursor and a queue
    /// with a failed try and completed uploads (so the queue's counter is past its rows).
    func host(_ store: StreakStore) throws {
        for offset in 0..<4 { _ = try store.record(Fixtures.result(day: day.adding(days: offset)), now: Fixtures.instant(day.adding(days: offset), hour: 13)) }
        _ = try store.record(StoreFixtures.connections(day: day), now: Fixtures.instant(day, hour: 14))
        try store.markCelebrated([try #require(store.pendingCelebrations().first).id], at: Fixtures.instant(day, hour: 15))
        var settings = try store.settings()
        settings.timeZoneIdentifier = "Europe/London"
        settings.favouriteGames = [.connections, .wordle]
        try store.setSettings(settings)
        try store.setSyncState("results-cursor", "c-42")
        let queued = try store.pendingUploads()
        try store.completeUploads(queued.prefix(2).map(\.seq))
        try store.failUploads([queued[3].seq], reason: "offline")
    }

    @Test func aGuestRoundTripRestoresTheHostsDataExactly() throws {
        let folder = try TemporaryDirectory()
        let store = try StreakStore.profile(at: folder.url)
        try host(store)
        let before = try store.playerDataDump()
        let csvBefore = try store.exportCSV()
        let queueBefore = try store.pendingUploads()
        let hostSettings = try store.settings()
        #expect(before.contains("[sqlite_sequence]") && before.contains("c-42"))

        let session = try store.startGuestMode(now: Fixtures.instant(day, hour: 18))
        #expect(session.hostResults == 5 && session.hostPendingUploads == queueBefore.count && session.guestResults == 0)
        #expect(try store.allResults().isEmpty && store.pendingUploads().isEmpty && store.pendingCelebrations().isEmpty)
        #expect(try store.achievements().allSatisfy { $0.value == 0 && $0.unlocks.isEmpty })
        #expect(try store.settings() == hostSettings)
        #expect(try store.syncState("results-cursor") == nil)

        // The guest plays (one of the host's very puzzles among them), unlocks tiers, changes settings.
        let guestResults = [Fixtures.result(day: day, hour: 19), Fixtures.result(.framed, day: day, hour: 20, score: 1, details: .framed(FramedDetails(wrongGuesses: 0)))]
        for result in guestResults { #expect(try store.record(result, now: Fixtures.instant(day, hour: 21)).inserted) }
        #expect(try store.pendingUploads().isEmpty, "a guest's results are never queued")
        #expect(try !store.pendingCelebrations().isEmpty)
        var guestSettings = try store.settings()
        guestSettings.timeZoneIdentifier = "Asia/Tokyo"
        try store.setSettings(guestSettings)
        #expect(try store.guestSession()?.guestResults == 2)
        #expect(throws: StreakStoreError.guestMode("a guest is already playing")) { try store.startGuestMode() }
        #expect(throws: StreakStoreError.guestMode("a guest's results are not synced")) { try store.requeueEverything() }

        // Guest mode survives a restart of the app.
        let reopened = try StreakStore.profile(at: folder.url)
        #expect(try reopened.guestSession()?.startedAt == Fixtures.instant(day, hour: 18))
        let end = try reopened.endGuestMode()
        #expect(end.startedAt == Fixtures.instant(day, hour: 18) && end.discardedResults == 2)
        #expect(end.restoredResults == 5 && end.restoredPendingUploads == queueBefore.count)

        #expect(try reopened.playerDataDump() == before)
        #expect(try reopened.exportCSV() == csvBefore)
        #expect(try reopened.pendingUploads() == queueBefore)
        #expect(try reopened.settings() == hostSettings)
        #expect(try reopened.syncState("results-cursor") == "c-42")
        #expect(try reopened.result(id: guestResults[1].id) == nil)
        #expect(try reopened.guestSession() == nil)
        #expect(throws: StreakStoreError.guestMode("no guest is playing")) { try reopened.endGuestMode() }

        // The queue's counters are the host's: a change after the guest leaves is queued exactly as
        // on a twin that never had a guest.
        let twin = try StreakStore.inMemory()
        try host(twin)
        #expect(try twin.playerDataDump() == before)
        let later = Fixtures.result(day: day.adding(days: 9))
        for store in [reopened, twin] { _ = try store.record(later, now: Fixtures.instant(day.adding(days: 9), hour: 9)) }
        #expect(try reopened.pendingUploads() == twin.pendingUploads())
        #expect(try reopened.playerDataDump() == twin.playerDataDump())
    }

    @Test func anEmptyHostComesBackEmpty() throws {
        let store = try StreakStore.inMemory()
        let before = try store.playerDataDump()
        try store.startGuestMode(now: Fixtures.instant(day, hour: 8))
        _ = try store.record(Fixtures.result(day: day), now: Fixtures.instant(day, hour: 9))
        #expect(try store.endGuestMode().discardedResults == 1)
        #expect(try store.playerDataDump() == before)
        #expect(try store.allResults().isEmpty)
    }

    @Test func theDeviceSendsNothingWhileAGuestPlays() async throws {
        let store = try StreakStore.inMemory()
        _ = try store.record(Fixtures.result(day: day), now: Fixtures.instant(day, hour: 9))
        // Port 9 (discard) on loopback: any request would fail with a transport error, not guest_mode.
        let session = KindredSession(serverURL: URL(string: "http://127.0.0.1:9")!, app: .streaksync, store: MemoryTokenStore())
        let device = StreakDevice(session: session, store: store)
        try store.startGuestMode()
        await #expect(throws: StreakClientError.guestMode) { try await device.sync() }
        await #expect(throws: StreakClientError.guestMode) { try await device.friendCode() }
        await #expect(throws: StreakClientError.guestMode) { try await device.leaderboard(game: .wordle, day: day) }
        await #expect(throws: StreakClientError.guestMode) { try await device.logIn(email: "a@example.com", password: "secret pass") }
        #expect(StreakClientError.guestMode.code == "guest_mode")
        try store.endGuestMode()
        // The host is back: the same call now reaches for the network (and fails there).
        await #expect(throws: StreakClientError.client(.notSignedIn)) { try await device.sync() }
        #expect(try store.pendingUploads(kind: .result).count == 1)
    }
}
