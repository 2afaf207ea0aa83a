import Foundation

/// What a check found: every category's progress, and the tiers reached for the first time.
public struct AchievementCheck: Hashable, Sendable {
    /// One record per category, in category order.
    public let progress: [AchievementProgress]
    /// Tiers above each category's previous highest tier, lowest first within a category: each is
    /// celebrated once.
    public let newlyUnlocked: [TierUnlock]
}

/// Checks achievements: a pure function of the metrics and the previous progress, with no UI and no
/// state of its own. Tiers never go down; running it again on its own output changes nothing.
public struct TieredAchievementChecker: Sendable {
    /// A checker.
    public init() {}

    /// The progress after `stats`, given `previous` (duplicates allowed), with tiers first reached
    /// at `now`.
    public func check(_ stats: AchievementStats, previous: some Sequence<AchievementProgress>, now: Date) -> AchievementCheck {
        let previousByCategory = Dictionary(
            uniqueKeysWithValues: AchievementProgress.deduplicated(previous).map { ($0.category, $0) })
        var progress: [AchievementProgress] = []
        var newlyUnlocked: [TierUnlock] = []
        for category in AchievementCategory.allCases {
            let before = previousByCategory[category]
            let value = stats[category]
            var unlocks = before?.unlocks ?? []
            let reached = Set(unlocks.map(\.tier))
            let previousTier = before?.tier
            for requirement in category.requirements where value >= requirement.threshold && !reached.contains(requirement.tier) {
                let unlock = TierUnlock(category: category, tier: requirement.tier, unlockedAt: now)
                unlocks.append(unlock)
                // A lower tier missing under a higher one (an older record) is filled in silently.
                if previousTier.map({ requirement.tier > $0 }) ?? true { newlyUnlocked.append(unlock) }
            }
            progress.append(AchievementProgress(category: category, value: value, unlocks: unlocks))
        }
        return AchievementCheck(progress: progress, newlyUnlocked: newlyUnlocked)
    }
}

/// Celebrations waiting to be shown: each tier is queued at most once, ever.
public struct CelebrationQueue: Hashable, Sendable, Codable {
    /// Waiting, oldest first.
    public private(set) var pending: [TierUnlock]
    /// Every tier ever queued.
    public private(set) var queued: Set<AchievementID>

    /// An empty queue.
    public init() {
        pending = []
        queued = []
    }

    /// Queues the tiers of `unlocks` never queued before.
    /// - Returns: how many were queued.
    @discardableResult
    public mutating func enqueue(_ unlocks: some Sequence<TierUnlock>) -> Int {
        var count = 0
        for unlock in unlocks where queued.insert(unlock.id).inserted {
            pending.append(unlock)
            count += 1
        }
        return count
    }

    /// Takes the oldest waiting celebration.
    public mutating func next() -> TierUnlock? {
        pending.isEmpty ? nil : pending.removeFirst()
    }
}
