import Foundation
import KindredClient
import KindredTestSupport
import StreakClient
import StreakKit
import Testing

/// The device puts the payload of every queued score in its secure store before anything is sent,
/// and keeps it there (and in the queue) when publishing fails. Publishing to a live server and the
/// removal afterwards: `StreakSyncEndToEndTests`.
@Suite struct StreakDevicePendingScoreTests {
    let folder: TemporaryDirectory
    let day = Fixtures.monday

    init() throws {
        folder = try TemporaryDirectory()
    }

    func secureStore() -> FileSecureStore { FileSecureStore(profileDirectory: folder.url, keySource: .keyFile) }

    /// A signed-out session on the discard port: every call fails before reaching a server.
    func device(_ store: StreakStore) -> StreakDevice {
        let session = KindredSession(serverURL: URL(string: "http://127.0.0.1:9")!, app: .streaksync, store: MemoryTokenStore())
        return StreakDevice(session: session, store: store, secureStore: secureStore())
    }

    @Test func aFailedSyncLeavesTheDaysBestScoreInTheSecureStore() async throws {
        let store = try StreakStore.inMemory()
        let yesterday = LocalDay(ordinal: day.ordinal - 1)
        _ = try store.record(Fixtures.result(day: yesterday, score: 5), now: Fixtures.instant(yesterday, hour: 12))
        _ = try store.record(Fixtures.result(day: day, hour: 8, score: 4, puzzle: 1_700), now: Fixtures.instant(day, hour: 8))
        _ = try store.record(Fixtures.result(day: day, hour: 9, score: 2, puzzle: 1_701), now: Fixtures.instant(day, hour: 9))
        await #expect(throws: StreakClientError.client(.notSignedIn)) { try await device(store).sync() }

        // What a restarted app reads back.
        let kept = try PendingScoreVault(secureStore: secureStore()).scores()
        #expect(kept == [
            PendingScore(game: .wordle, day: yesterday, score: 5, max: 6, completed: true, currentStreak: 1, timeZone: nil),
            PendingScore(game: .wordle, day: day, score: 2, max: 6, completed: true, currentStreak: 2, timeZone: nil),
        ])
        #expect(try store.pendingUploads(kind: .score).map(\.recordID) == kept.map(\.id))

        // Publishing at launch fails too: both stay kept, and the first queue entry records the failure.
        await #expect(throws: StreakClientError.client(.notSignedIn)) { try await device(store).publishPendingScores() }
        #expect(try PendingScoreVault(secureStore: secureStore()).scores() == kept)
        let queued = try store.pendingUploads(kind: .score)
        #expect(queued.map(\.attempts) == [1, 0] && queued.first?.lastError == "not signed in")
    }

    @Test func stagingAgainReplacesThePayloadWithTheDaysNewBest() throws {
        let store = try StreakStore.inMemory()
        _ = try store.record(Fixtures.result(day: day, hour: 8, score: 4, puzzle: 1_700), now: Fixtures.instant(day, hour: 8))
        let vault = PendingScoreVault(secureStore: secureStore())
        try device(store).stagePendingScores()
        #expect(try vault.scores().map(\.score) == [4])

        _ = try store.record(Fixtures.result(day: day, hour: 9, score: 3, puzzle: 1_701), now: Fixtures.instant(day, hour: 9))
        try device(store).stagePendingScores()
        #expect(try PendingScoreVault(secureStore: secureStore()).scores().map(\.score) == [3])
        #expect(try store.pendingUploads(kind: .score).count == 1)
    }

    @Test func nothingIsStagedWhileAGuestPlays() async throws {
        let store = try StreakStore.inMemory()
        _ = try store.record(Fixtures.result(day: day), now: Fixtures.instant(day, hour: 12))
        try store.startGuestMode()
        await #expect(throws: StreakClientError.guestMode) { try await device(store).sync() }
        await #expect(throws: StreakClientError.guestMode) { try await device(store).publishPendingScores() }
        #expect(try secureStore().read(PendingScoreVault.item) == nil)
    }
}
