import Foundation
import StreakKit
import Testing

/// Achievements in the store: checked after each change, each new tier celebrated once, never lost.
@Suite struct StreakStoreAchievementTests {
    let day = Fixtures.monday

    @Test func aThreeDayStreakUnlocksStreakMasterBronzeOnce() throws {
        let store = try StreakStore.inMemory()
        var unlocked: [[TierUnlock]] = []
        for offset in 0..<3 {
            let now = Fixtures.instant(day.adding(days: offset), hour: 13)
            unlocked.append(try store.record(Fixtures.result(day: day.adding(days: offset)), now: now).newlyUnlocked)
        }
        #expect(unlocked[0].isEmpty && unlocked[1].isEmpty)
        #expect(unlocked[2].map(\.id) == [AchievementCategory.streakMaster.id(for: .bronze)])
        #expect(unlocked[2].first?.unlockedAt == Fixtures.instant(day.adding(days: 2), hour: 13))
        let progress = try store.achievements()
        #expect(progress.count == AchievementCategory.allCases.count)
        #expect(progress.first { $0.category == .streakMaster }?.value == 3)
        #expect(progress.first { $0.category == .streakMaster }?.tier == .bronze)
        #expect(progress.first { $0.category == .marathonRunner }?.value == 3)

        #expect(try store.pendingCelebrations().map(\.id) == [AchievementCategory.streakMaster.id(for: .bronze)])
        try store.markCelebrated([AchievementCategory.streakMaster.id(for: .bronze)])
        #expect(try store.pendingCelebrations().isEmpty)
        #expect(try store.checkAchievements(now: Fixtures.instant(day.adding(days: 5), hour: 1)).newlyUnlocked.isEmpty)
        #expect(try store.pendingCelebrations().isEmpty)
    }

    @Test func pulledAchievementsMergeAndTiersAreNeverLost() throws {
        let store = try StreakStore.inMemory()
        let earlier = Fixtures.instant(day, hour: 1)
        let remote = AchievementProgress(
            category: .dailyDevotee, value: 30,
            unlocks: [TierUnlock(category: .dailyDevotee, tier: .bronze, unlockedAt: earlier),
                      TierUnlock(category: .dailyDevotee, tier: .silver, unlockedAt: earlier)])
        #expect(try store.applyRemote(achievements: [remote], now: earlier) == 1)
        #expect(try store.applyRemote(achievements: [remote], now: earlier) == 0)
        #expect(try store.pendingUploads().isEmpty)
        // One local result: the metric is 1 here, but the tiers reached elsewhere stay.
        _ = try store.record(Fixtures.result(day: day), now: Fixtures.instant(day, hour: 13))
        let devotee = try #require(try store.achievements().first { $0.category == .dailyDevotee })
        #expect(devotee.tier == .silver)
        #expect(devotee.unlocks.map(\.unlockedAt) == [earlier, earlier])
        #expect(try store.pendingCelebrations().isEmpty)
    }
}
