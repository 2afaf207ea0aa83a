@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The sync of achievement records: the results' rules with their own bounds.
@Suite struct StreakAchievementSyncTests {
    static func upload(_ client: any TestClientProtocol, _ member: StreakMember, _ records: [String]) async throws -> TestResponse {
        try await client.streak(.post, "/v1/streaksync/achievements", token: member.token, json: StreakFixtures.achievements(records))
    }

    static func summary(_ client: any TestClientProtocol, _ response: TestResponse) -> (Int, Int) {
        #expect(response.status == .ok, "\(response.text)")
        let object = client.object(response)
        return (object["applied"] as? Int ?? -1, object["ignored"] as? Int ?? -1)
    }

    @Test(arguments: Backend.all)
    func deterministicIdsConvergeOnTheLatestRecord(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada", anonymous: true, profile: false)
            let phone = [
                StreakFixtures.achievement("achievement.streak-master", tier: 2, progress: 14),
                StreakFixtures.achievement("achievement.game-collector", category: "game-collector", tier: 0, progress: 2, unlockedAt: nil),
            ]
            #expect(Self.summary(client, try await Self.upload(client, ada, phone)) == (2, 0))
            #expect(Self.summary(client, try await Self.upload(client, ada, phone)) == (0, 2))
            // The tablet recalculated later: its record wins; an older one from the phone loses.
            let tablet = StreakFixtures.achievement("achievement.streak-master", tier: 3, progress: 30, unlockedAt: "2026-06-30T10:00:00Z", updatedAt: "2026-07-01T09:00:00Z")
            #expect(Self.summary(client, try await Self.upload(client, ada, [tablet])) == (1, 0))
            #expect(Self.summary(client, try await Self.upload(client, ada, [phone[0]])) == (0, 1))

            let first = try await client.streak(.get, "/v1/streaksync/achievements?limit=1", token: ada.token)
            #expect(first.status == .ok, "\(first.text)")
            let page = client.object(first)
            #expect((page["achievements"] as? [[String: Any]])?.map { $0["id"] as? String } == ["achievement.game-collector"])
            #expect(page["hasMore"] as? Bool == true)
            let rest = client.object(try await client.streak(.get, "/v1/streaksync/achievements?cursor=\(page["cursor"] as? String ?? "")", token: ada.token))
            let records = rest["achievements"] as? [[String: Any]] ?? []
            #expect(records.map { $0["id"] as? String } == ["achievement.streak-master"])
            #expect(records.first?["tier"] as? Int == 3 && records.first?["progress"] as? Int == 30)
            #expect(records.first?["unlockedAt"] as? String == "2026-06-30T10:00:00Z")
            #expect(rest["hasMore"] as? Bool == false)
            #expect((page["achievements"] as? [[String: Any]])?.first?.keys.contains("unlockedAt") == false)
            let told = try await StreakFixtures.events("streaksync.sync", for: ada.id, on: application.database)
            #expect(told.map { $0.strings["collection"] } == ["achievements", "achievements"])
        }
    }

    @Test(arguments: Backend.all)
    func badAchievementsAreRefusedNamingTheFieldAndTheIndex(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: try StreakFixtures.clock()) { application, client in
            let ada = try await client.streakMember("ada", profile: false)
            let good = StreakFixtures.achievement("achievement.perfectionist", category: "perfectionist")
            let cases: [(String, String)] = [
                (StreakFixtures.achievement("bad id"), "achievements[1].id must be 1 to 64"),
                (StreakFixtures.achievement("a", category: "Streak Master"), "achievements[1].category must be"),
                (StreakFixtures.achievement("a", tier: 17), "body.achievements[1].tier is greater than 16"),
                (StreakFixtures.achievement("a", tier: -1), "body.achievements[1].tier is less than 0"),
                (StreakFixtures.achievement("a", progress: -5), "body.achievements[1].progress is less than 0"),
                (StreakFixtures.achievement("a", unlockedAt: "1990-01-01T00:00:00Z"), "achievements[1].unlockedAt must be after 2000"),
                (StreakFixtures.achievement("a", updatedAt: "2027-01-01T00:00:00Z"), "achievements[1].updatedAt must be after 2000"),
            ]
            for (bad, message) in cases {
                let response = try await Self.upload(client, ada, [good, bad])
                expectRefusal(response, 422, "invalid_achievement", message)
                #expect(response.text.contains(message), "\(response.text)")
            }
            expectRefusal(try await Self.upload(client, ada, []), 422, "invalid_achievement")
            let tooMany = (0...200).map { StreakFixtures.achievement("a\($0)") }
            expectRefusal(try await Self.upload(client, ada, tooMany), 422, "invalid_achievement")
            #expect(try await StreakFixtures.count("streaksync_achievements", where: "user_id", is: ada.id, on: application.database) == 0)
            expectRefusal(try await client.streak(.get, "/v1/streaksync/achievements?limit=201", token: ada.token), 400, "bad_request")
            // At the account's limit, a new record is refused and a known one still updates.
            #expect(Self.summary(client, try await Self.upload(client, ada, [good])) == (1, 0))
            try await application.database.sql.update("streaksync_sync_clocks")
                .set("achievements", to: StreakSettings().maxAchievementsPerUser).where("user_id", .equal, ada.id).run()
            expectRefusal(try await Self.upload(client, ada, [StreakFixtures.achievement("achievement.new")]), 409, "too_many_achievements")
            let later = StreakFixtures.achievement("achievement.perfectionist", category: "perfectionist", tier: 3, updatedAt: "2026-07-01T10:00:00Z")
            #expect(Self.summary(client, try await Self.upload(client, ada, [later])) == (1, 0))
        }
    }
}
