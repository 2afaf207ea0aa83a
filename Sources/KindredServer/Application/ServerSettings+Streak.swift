import Configuration
import Foundation
import KindredServerCore
import StreakServer

extension ServerSettings {
    /// The `streaksync.*` keys: `streaksync.codeLookupsPerUserPerHour`,
    /// `streaksync.codeLookupsPerAddressPerHour`, `streaksync.maxFriends`,
    /// `streaksync.maxPendingRequests`, `streaksync.scoreRetentionDays`,
    /// `streaksync.maxResultsPerUser`, `streaksync.maxAchievementsPerUser`.
    static func resolveStreak(_ config: ConfigReader) throws -> StreakSettings {
        var settings = StreakSettings()
        func within(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) throws -> Int {
            let value = config.int(forKey: ConfigKey(["streaksync", name]), default: fallback)
            guard range.contains(value) else {
                throw Invalid(description: "streaksync.\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)")
            }
            return value
        }
        settings.codeLookupsPerUserPerHour = try within("codeLookupsPerUserPerHour", settings.codeLookupsPerUserPerHour, 1...10_000)
        settings.codeLookupsPerAddressPerHour = try within(
            "codeLookupsPerAddressPerHour", settings.codeLookupsPerAddressPerHour, 1...100_000
        )
        settings.maxFriends = try within("maxFriends", settings.maxFriends, 1...500)
        settings.maxPendingRequests = try within("maxPendingRequests", settings.maxPendingRequests, 1...1_000)
        settings.scoreRetentionDays = try within("scoreRetentionDays", settings.scoreRetentionDays, 7...3_650)
        settings.maxResultsPerUser = try within("maxResultsPerUser", settings.maxResultsPerUser, 1...10_000_000)
        settings.maxAchievementsPerUser = try within("maxAchievementsPerUser", settings.maxAchievementsPerUser, 1...100_000)
        return settings
    }
}
