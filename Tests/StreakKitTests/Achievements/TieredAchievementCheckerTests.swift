import Foundation
@testable import StreakKit
import Testing

@Suite struct TieredAchievementCheckerTests {
    let checker = TieredAchievementChecker()
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    func stats(_ values: [AchievementCategory: Int]) -> AchievementStats { AchievementStats(values: values) }

    @Test func reachingGoldAtOnceUnlocksEveryTierBelowIt() {
        let check = checker.check(stats([.streakMaster: 45]), previous: [], now: t0)
        #expect(check.newlyUnlocked.map(\.tier) == [.bronze, .silver, .gold])
        #expect(check.newlyUnlocked.allSatisfy { $0.category == .streakMaster && $0.unlockedAt == t0 })
        #expect(check.progress.count == 10)
        #expect(check.progress.first { $0.category == .streakMaster }?.tier == .gold)
        #expect(check.progress.first { $0.category == .streakMaster }?.next == TierRequirement(tier: .diamond, threshold: 100))
    }

    @Test func recalculationIsIdempotent() {
        let first = checker.check(stats([.streakMaster: 45, .marathonRunner: 120, .socialPlayer: 3]), previous: [], now: t0)
        let again = checker.check(stats([.streakMaster: 45, .marathonRunner: 120, .socialPlayer: 3]), previous: first.progress, now: t0 + 60)
        #expect(again.progress == first.progress)
        #expect(again.newlyUnlocked.isEmpty)
    }

    @Test func tiersNeverGoDown() {
        let first = checker.check(stats([.dailyDevotee: 120]), previous: [], now: t0)
        let after = checker.check(stats([.dailyDevotee: 10]), previous: first.progress, now: t0 + 60)
        let progress = after.progress.first { $0.category == .dailyDevotee }
        #expect(progress?.tier == .gold && progress?.value == 10)
        #expect(after.newlyUnlocked.isEmpty)
    }

    @Test func duplicateRecordsMergeToOnePerCategory() {
        let early = TierUnlock(category: .perfectionist, tier: .bronze, unlockedAt: t0)
        let late = TierUnlock(category: .perfectionist, tier: .bronze, unlockedAt: t0 + 500)
        let silver = TierUnlock(category: .perfectionist, tier: .silver, unlockedAt: t0 + 900)
        let records = [
            AchievementProgress(category: .perfectionist, value: 4, unlocks: [late]),
            AchievementProgress(category: .speedDemon, value: 0, unlocks: []),
            AchievementProgress(category: .perfectionist, value: 12, unlocks: [early, silver, early]),
        ]
        let merged = AchievementProgress.deduplicated(records)
        #expect(merged.map(\.category) == [.perfectionist, .speedDemon])
        #expect(merged[0].value == 12 && merged[0].unlocks == [early, silver])
        #expect(AchievementProgress.deduplicated(merged) == merged)
        // The checker accepts duplicated input and returns one record per category.
        let check = checker.check(stats([.perfectionist: 12]), previous: records + records, now: t0 + 1_000)
        #expect(Set(check.progress.map(\.id)).count == check.progress.count)
        #expect(check.newlyUnlocked.isEmpty)
    }

    @Test func aMissingLowerTierIsFilledInWithoutACelebration() {
        let old = AchievementProgress(category: .gameCollector, value: 10, unlocks: [TierUnlock(category: .gameCollector, tier: .gold, unlockedAt: t0)])
        let check = checker.check(stats([.gameCollector: 10]), previous: [old], now: t0 + 1)
        #expect(check.progress.first { $0.category == .gameCollector }?.unlocks.map(\.tier) == [.bronze, .silver, .gold])
        #expect(check.newlyUnlocked.isEmpty)
    }

    @Test func aCelebrationIsQueuedOncePerTierOverAGrowingHistory() {
        var random = SeededGenerator(seed: 42)
        var values: [AchievementCategory: Int] = [:]
        var progress: [AchievementProgress] = []
        var queue = CelebrationQueue()
        var shown: [AchievementID] = []
        for step in 0..<400 {
            for category in AchievementCategory.allCases where Bool.random(using: &random) {
                values[category, default: 0] += Int.random(in: 0...40, using: &random)
            }
            let check = checker.check(stats(values), previous: progress, now: t0 + Double(step))
            for (before, after) in zip(AchievementProgress.deduplicated(progress), check.progress) where before.category == after.category {
                #expect((after.tier ?? .bronze) >= (before.tier ?? .bronze))
            }
            progress = check.progress
            queue.enqueue(check.newlyUnlocked)
            queue.enqueue(check.newlyUnlocked)  // a second delivery of the same check changes nothing
            if Bool.random(using: &random), let next = queue.next() { shown.append(next.id) }
        }
        while let next = queue.next() { shown.append(next.id) }
        #expect(Set(shown).count == shown.count)
        let unlocked = progress.flatMap(\.unlocks).map(\.id)
        #expect(Set(shown) == Set(unlocked))
    }
}
