import Foundation
import KindredClient
import KindredTestSupport
import StreakClient
import StreakKit
import Testing

/// The scores waiting for the leaderboards, kept in the secure store: they survive a restart, are
/// published once, leave the store on success and stay on failure.
@Suite struct PendingScoreVaultTests {
    let folder: TemporaryDirectory
    let day = Fixtures.monday

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// The vault over a fresh `FileSecureStore` on the folder: a new instance is what a restart sees.
    func restartedVault() -> PendingScoreVault {
        PendingScoreVault(secureStore: FileSecureStore(profileDirectory: folder.url, keySource: .keyFile))
    }

    func score(_ game: GameID = .wordle, dayOffset: Int = 0, score: Int = 3) -> PendingScore {
        PendingScore(
            game: game, day: LocalDay(ordinal: day.ordinal + dayOffset), score: score, max: 6, completed: true,
            currentStreak: 4, timeZone: "Europe/London")
    }

    @Test func aKeptScoreSurvivesARestartIsPublishedOnceAndThenRemoved() async throws {
        let wordle = score()
        try restartedVault().keep([wordle])
        #expect(try restartedVault().scores() == [wordle])

        var sent: [PendingScore] = []
        let outcome = try await restartedVault().publishAll { score async throws(StreakClientError) in
            sent.append(score)
            return .published
        }
        #expect(sent == [wordle] && outcome.published == [wordle] && outcome.refused.isEmpty)
        #expect(try restartedVault().scores().isEmpty)
        #expect(try FileSecureStore(profileDirectory: folder.url, keySource: .keyFile).read(PendingScoreVault.item) == nil)

        try await restartedVault().publishAll { score async throws(StreakClientError) in
            sent.append(score)
            return .published
        }
        #expect(sent == [wordle])
    }

    @Test func aFailureKeepsThatScoreAndTheLaterOnesForTheNextLaunch() async throws {
        let first = score(dayOffset: 0), second = score(dayOffset: 1), third = score(.connections, dayOffset: 1)
        try restartedVault().keep([first, second, third])
        var sent: [PendingScore] = []
        await #expect(throws: StreakClientError.client(.transport("offline"))) {
            try await restartedVault().publishAll { score async throws(StreakClientError) in
                sent.append(score)
                if score == second { throw .client(.transport("offline")) }
                return .published
            }
        }
        #expect(sent == [first, second])
        #expect(try restartedVault().scores() == [second, third])

        let outcome = try await restartedVault().publishAll { score async throws(StreakClientError) in
            sent.append(score)
            return score == third ? .refused : .published
        }
        #expect(sent == [first, second, second, third])
        #expect(outcome.published == [second] && outcome.refused == [third])
        #expect(try restartedVault().scores().isEmpty)
    }

    @Test func keepingTheSameGameAndDayReplacesItInPlace() throws {
        let vault = restartedVault()
        try vault.keep([score(dayOffset: 0), score(dayOffset: 1), score(.connections)])
        try vault.keep([score(dayOffset: 0, score: 2), score(.framed)])
        #expect(try restartedVault().scores() == [score(dayOffset: 0, score: 2), score(dayOffset: 1), score(.connections), score(.framed)])
        try vault.remove(ids: [score(dayOffset: 1).id, "no-such|2026-01-01"])
        #expect(try restartedVault().scores().map(\.id) == ["wordle|2026-03-02", "connections|2026-03-02", "framed|2026-03-02"])
    }

    @Test func theScoresAreNotReadableInThePlainFile() throws {
        try restartedVault().keep([score(.queens, score: 4_321)])
        let file = try Data(contentsOf: folder.url.appendingPathComponent(FileSecureStore.fileName))
        let text = String(decoding: file, as: UTF8.self)
        #expect(!text.contains("linkedin-queens") && !text.contains("4321") && !text.contains("Europe/London"))
        #expect(try restartedVault().scores().first?.score == 4_321)
    }

    @Test func anItemThatIsNotAListOfScoresIsATypedError() throws {
        let store = InMemorySecureStore()
        try store.write(PendingScoreVault.item, Array(#"{"game":"wordle"}"#.utf8))
        let error = try #require(throws: StreakClientError.self) { try PendingScoreVault(secureStore: store).scores() }
        #expect(error.code == "secure_store")
        #expect(error.description.hasPrefix("secure store: streaksync.pending-scores is not a list of pending scores"))
    }
}
