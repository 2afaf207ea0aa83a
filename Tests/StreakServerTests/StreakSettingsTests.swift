@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Testing

/// The `streaksync.*` keys.
@Suite struct StreakSettingsTests {
    @Test func defaultsAndEnvironment() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.domains.streaksync
        #expect(defaults == StreakSettings())
        #expect(defaults.codeLookupsPerUserPerHour == 20 && defaults.codeLookupsPerAddressPerHour == 60)
        #expect(defaults.maxFriends == 500 && defaults.maxPendingRequests == 100 && defaults.scoreRetentionDays == 400)
        #expect(defaults.maxResultsPerUser == 100_000 && defaults.maxAchievementsPerUser == 1_000)

        let set = try await ServerSettings.resolve(
            flags: .init(),
            environment: [
                "KINDRED_STREAKSYNC_CODE_LOOKUPS_PER_USER_PER_HOUR": "5", "KINDRED_STREAKSYNC_CODE_LOOKUPS_PER_ADDRESS_PER_HOUR": "50",
                "KINDRED_STREAKSYNC_MAX_FRIENDS": "150", "KINDRED_STREAKSYNC_MAX_PENDING_REQUESTS": "10",
                "KINDRED_STREAKSYNC_SCORE_RETENTION_DAYS": "30", "KINDRED_STREAKSYNC_MAX_RESULTS_PER_USER": "5000",
                "KINDRED_STREAKSYNC_MAX_ACHIEVEMENTS_PER_USER": "200",
            ]
        ).server.domains.streaksync
        #expect(set.codeLookupsPerUserPerHour == 5 && set.codeLookupsPerAddressPerHour == 50)
        #expect(set.maxFriends == 150 && set.maxPendingRequests == 10 && set.scoreRetentionDays == 30)
        #expect(set.maxResultsPerUser == 5000 && set.maxAchievementsPerUser == 200)
    }

    @Test func aValueOutOfRangeIsRefused() async throws {
        await #expect(throws: ServerSettings.Invalid(description: "streaksync.maxFriends must be 1 to 500, not 501")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_STREAKSYNC_MAX_FRIENDS": "501"])
        }
        await #expect(throws: ServerSettings.Invalid(description: "streaksync.scoreRetentionDays must be 7 to 3650, not 0")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_STREAKSYNC_SCORE_RETENTION_DAYS": "0"])
        }
    }
}
