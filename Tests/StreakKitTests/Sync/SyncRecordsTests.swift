import Foundation
@testable import StreakClient
import StreakKit
import Testing

/// How results and achievements cross the contract, both ways, and what a bad wire record gives.
@Suite struct SyncRecordsTests {
    let day = Fixtures.monday
    let changed = Date(timeIntervalSince1970: 1_772_500_000)

    @Test func aResultGoesOutAndComesBackEqual() throws {
        let result = Fixtures.result(day: day, hour: 21, minute: 5, offsetHours: -5, score: 4, puzzle: 1_492)
        let remote = try SyncRecords.remote(result, updatedAt: changed)
        #expect(remote.id == "wordle:1492:2026-03-02" && remote.gameId == "wordle" && remote.puzzle == 1_492)
        #expect(remote.score == 4 && remote.max == 6 && remote.completed && remote.localDate == "2026-03-02")
        #expect(remote.recordedAt == result.recordedAt && remote.updatedAt == changed && remote.deleted == nil)
        let back = try SyncRecords.synced(remote)
        #expect(back.result == result && back.updatedAt == changed && !back.deleted)
    }

    @Test func aShareWithoutAPuzzleTravelsAsPuzzleZero() throws {
        let share = try GameCatalog().parse("Completed in 0:45", as: .miniCrossword)
        let result = GameResult(share: share, recordedAt: Fixtures.instant(day, hour: 7), timeZone: Fixtures.utc)
        let remote = try SyncRecords.remote(result, updatedAt: changed)
        #expect(remote.puzzle == 0 && remote.id == "mini-crossword:-:2026-03-02")
        #expect(try SyncRecords.synced(remote).result == result)
    }

    @Test func aWireRecordThatDoesNotHoldItsResultIsATypedError() throws {
        let remote = try SyncRecords.remote(Fixtures.result(day: day, puzzle: 1_492), updatedAt: changed)
        var wrongID = remote
        wrongID.id = "wordle:1493:2026-03-02"
        #expect(throws: StreakClientError.invalidServerData("result wordle:1493:2026-03-02: the id does not match the game, puzzle and day")) {
            try SyncRecords.synced(wrongID)
        }
        var badDate = remote
        badDate.localDate = "2026-02-30"
        #expect(throws: StreakClientError.invalidServerData("result \(remote.id): localDate is not a date")) { try SyncRecords.synced(badDate) }
        var noFields = remote
        noFields.fields = nil
        #expect(throws: StreakClientError.invalidServerData("result \(remote.id): fields.details is missing or not a game's details")) {
            try SyncRecords.synced(noFields)
        }
    }

    @Test func achievementProgressGoesOutAndComesBackWithEveryLowerTier() throws {
        let at = Fixtures.instant(day, hour: 9)
        let progress = AchievementProgress(
            category: .streakMaster, value: 8,
            unlocks: [TierUnlock(category: .streakMaster, tier: .bronze, unlockedAt: at), TierUnlock(category: .streakMaster, tier: .silver, unlockedAt: at)])
        let remote = SyncRecords.remote(progress, updatedAt: changed)
        #expect(remote.id == "achievement.streak-master" && remote.tier == AchievementTier.silver.rawValue && remote.progress == 8)
        #expect(remote.unlockedAt == at && remote.updatedAt == changed)
        #expect(try SyncRecords.progress(remote) == progress)

        var unknown = remote
        unknown.category = "chess-master"
        #expect(throws: StreakClientError.invalidServerData("achievement achievement.streak-master: unknown category chess-master")) {
            try SyncRecords.progress(unknown)
        }
        var undated = remote
        undated.unlockedAt = nil
        #expect(throws: StreakClientError.invalidServerData("achievement achievement.streak-master: tier \(remote.tier) without a date, or unknown")) {
            try SyncRecords.progress(undated)
        }
        var none = remote
        none.tier = 0
        none.unlockedAt = nil
        #expect(try SyncRecords.progress(none).unlocks.isEmpty)
    }
}
