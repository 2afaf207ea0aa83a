/// An achievement tier, lowest first.
public enum AchievementTier: Int, Hashable, Comparable, Sendable, Codable, CaseIterable {
    /// The first tier.
    case bronze = 1
    /// The second tier.
    case silver
    /// The third tier.
    case gold
    /// The fourth tier.
    case diamond
    /// The fifth tier, in the categories that have one.
    case legendary

    /// The tier's name in ids (`gold`).
    public var key: String {
        switch self {
        case .bronze: "bronze"
        case .silver: "silver"
        case .gold: "gold"
        case .diamond: "diamond"
        case .legendary: "legendary"
        }
    }

    /// Orders by rank.
    public static func < (lhs: AchievementTier, rhs: AchievementTier) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An achievement's or a tier's permanent id: `achievement.<category>` or `achievement.<category>.<tier>`.
public struct AchievementID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The id as stored and synced.
    public let rawValue: String
    /// Wraps a stored id.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Decodes the bare string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// Orders by the raw value.
    public static func < (lhs: AchievementID, rhs: AchievementID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The raw value.
    public var description: String { rawValue }
}

/// One threshold: the value a category's metric must reach for a tier.
public struct TierRequirement: Hashable, Sendable {
    /// The tier.
    public let tier: AchievementTier
    /// The metric's value that reaches it.
    public let threshold: Int
}

/// The ten achievement categories, each a metric of the player's results with tier thresholds.
public enum AchievementCategory: String, Hashable, Sendable, Codable, CaseIterable {
    /// Longest streak in any one game (days; weeks for weekly games).
    case streakMaster = "streak-master"
    /// Different games with a completed result.
    case gameCollector = "game-collector"
    /// Perfect results (`AchievementRules.isPerfect`).
    case perfectionist
    /// Days with at least one completed result.
    case dailyDevotee = "daily-devotee"
    /// Most different games completed on one day.
    case varietyPlayer = "variety-player"
    /// Fast results in timed games (`AchievementRules.isFast`).
    case speedDemon = "speed-demon"
    /// Completed results in all.
    case marathonRunner = "marathon-runner"
    /// Times a result beat the player's previous best in its game.
    case personalBest = "personal-best"
    /// Results shared with friends (counted by the app's social side and passed in).
    case socialPlayer = "social-player"
    /// Games with at least `AchievementRules.completionistResults` completed results.
    case completionist

    /// The category's permanent id.
    public var id: AchievementID { AchievementID(rawValue: "achievement.\(rawValue)") }

    /// A tier's permanent id.
    public func id(for tier: AchievementTier) -> AchievementID {
        AchievementID(rawValue: "achievement.\(rawValue).\(tier.key)")
    }

    /// The name shown to people.
    public var title: String {
        switch self {
        case .streakMaster: "Streak Master"
        case .gameCollector: "Game Collector"
        case .perfectionist: "Perfectionist"
        case .dailyDevotee: "Daily Devotee"
        case .varietyPlayer: "Variety Player"
        case .speedDemon: "Speed Demon"
        case .marathonRunner: "Marathon Runner"
        case .personalBest: "Personal Best"
        case .socialPlayer: "Social Player"
        case .completionist: "Completionist"
        }
    }

    /// The thresholds, lowest tier first, strictly increasing (Legendary only where it applies).
    public var requirements: [TierRequirement] {
        let thresholds: [Int]
        switch self {
        case .streakMaster: thresholds = [3, 7, 30, 100, 365]
        case .gameCollector: thresholds = [2, 5, 10, 15]
        case .perfectionist: thresholds = [1, 10, 50, 200, 500]
        case .dailyDevotee: thresholds = [7, 30, 100, 365, 1_000]
        case .varietyPlayer: thresholds = [2, 3, 5, 8]
        case .speedDemon: thresholds = [1, 10, 50, 100]
        case .marathonRunner: thresholds = [25, 100, 500, 1_000, 5_000]
        case .personalBest: thresholds = [1, 5, 25, 100]
        case .socialPlayer: thresholds = [1, 10, 50, 200]
        case .completionist: thresholds = [1, 3, 6, 10, 15]
        }
        return zip(AchievementTier.allCases, thresholds).map { TierRequirement(tier: $0, threshold: $1) }
    }

    /// The highest tier `value` reaches, or nil below Bronze.
    public func tier(for value: Int) -> AchievementTier? {
        requirements.last { value >= $0.threshold }?.tier
    }

    /// The next tier above `tier` and its threshold, or nil at the top.
    public func next(after tier: AchievementTier?) -> TierRequirement? {
        guard let tier else { return requirements.first }
        return requirements.first { $0.tier > tier }
    }
}
