import Foundation

/// A tier reached in a category, and when.
public struct TierUnlock: Identifiable, Hashable, Sendable, Codable {
    /// The category.
    public let category: AchievementCategory
    /// The tier.
    public let tier: AchievementTier
    /// When it was first reached.
    public let unlockedAt: Date

    /// An unlock from its parts.
    public init(category: AchievementCategory, tier: AchievementTier, unlockedAt: Date) {
        self.category = category
        self.tier = tier
        self.unlockedAt = unlockedAt
    }

    /// `achievement.<category>.<tier>`: the same on every device and every recalculation.
    public var id: AchievementID { category.id(for: tier) }
}

/// A category's metric and the tiers it has reached (persisted and synced, one record per category).
public struct AchievementProgress: Identifiable, Hashable, Sendable, Codable {
    /// The category.
    public let category: AchievementCategory
    /// The metric's value at the last check.
    public let value: Int
    /// The tiers reached, lowest first; never shrinks.
    public let unlocks: [TierUnlock]

    /// A record from its parts (unlocks of another category are dropped, duplicates keep the earliest).
    public init(category: AchievementCategory, value: Int, unlocks: [TierUnlock]) {
        self.category = category
        self.value = value
        var byTier: [AchievementTier: TierUnlock] = [:]
        for unlock in unlocks where unlock.category == category {
            if let kept = byTier[unlock.tier], kept.unlockedAt <= unlock.unlockedAt { continue }
            byTier[unlock.tier] = unlock
        }
        self.unlocks = byTier.values.sorted { $0.tier < $1.tier }
    }

    /// `achievement.<category>`.
    public var id: AchievementID { category.id }
    /// The highest tier reached, or nil.
    public var tier: AchievementTier? { unlocks.last?.tier }
    /// The next tier and its threshold, or nil at the top.
    public var next: TierRequirement? { category.next(after: tier) }

    /// One record per category from `records` that may hold duplicates (two devices, an old sync):
    /// the highest value, and every tier reached with its earliest date; in category order.
    public static func deduplicated(_ records: some Sequence<AchievementProgress>) -> [AchievementProgress] {
        var merged: [AchievementCategory: AchievementProgress] = [:]
        for record in records {
            if let kept = merged[record.category] {
                merged[record.category] = AchievementProgress(
                    category: record.category, value: max(kept.value, record.value), unlocks: kept.unlocks + record.unlocks)
            } else {
                merged[record.category] = record
            }
        }
        return AchievementCategory.allCases.compactMap { merged[$0] }
    }
}
