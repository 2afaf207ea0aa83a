@testable import StreakKit
import Testing

@Suite struct AchievementCategoryTests {
    @Test func tenCategoriesWithDistinctDeterministicIds() {
        #expect(AchievementCategory.allCases.count == 10)
        let ids = AchievementCategory.allCases.flatMap { category in
            [category.id] + AchievementTier.allCases.map { category.id(for: $0) }
        }
        #expect(Set(ids).count == ids.count)
        #expect(AchievementCategory.streakMaster.id.rawValue == "achievement.streak-master")
        #expect(AchievementCategory.speedDemon.id(for: .diamond).rawValue == "achievement.speed-demon.diamond")
    }

    @Test(arguments: AchievementCategory.allCases)
    func thresholdsRiseThroughBronzeToDiamond(_ category: AchievementCategory) {
        let requirements = category.requirements
        #expect(Array(requirements.map(\.tier).prefix(4)) == [.bronze, .silver, .gold, .diamond])
        #expect(requirements.count == 4 || requirements.last?.tier == .legendary)
        #expect(zip(requirements, requirements.dropFirst()).allSatisfy { $0.threshold < $1.threshold })
        #expect(requirements[0].threshold > 0)
    }

    @Test(arguments: AchievementCategory.allCases)
    func theTierNeverFallsAsTheValueRises(_ category: AchievementCategory) {
        var previous: AchievementTier?
        for value in 0...6_000 {
            let tier = category.tier(for: value)
            if let previous { #expect(tier.map { $0 >= previous } ?? false) }
            previous = tier
        }
        #expect(category.tier(for: 0) == nil)
        #expect(category.next(after: nil)?.tier == .bronze)
        #expect(category.next(after: category.requirements.last?.tier) == nil)
    }
}
