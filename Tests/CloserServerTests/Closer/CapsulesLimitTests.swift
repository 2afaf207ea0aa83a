@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredCrypto
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `closer.capsulesPerCouple`: a couple keeps at most that many capsules (both members' count
/// together); one more is 409 `capsule_limit_reached` and stores nothing; deleting a locked one
/// makes room; another couple has its own count.
@Suite struct CapsulesLimitTests {
    @Test(arguments: Backend.all)
    func theCapIsPerCoupleAndTyped(backend: Backend) async throws {
        let clock = TestClock(start: try instant("2026-06-01T12:00:00Z"))
        var closer = CloserSettings()
        closer.capsulesPerCouple = 3
        try await TestApplication.run(on: backend, clock: clock, closer: closer) { app, client in
            let couple = try await client.datesCouple("capsule-cap")
            let other = try await client.datesCouple("capsule-cap-other")
            let cipher = try GamesFixtures.cipher()
            func create(_ pair: DatesCouple, _ token: String, _ title: String) async throws -> TestResponse {
                let body = try OverTimeFixtures.capsule(title: title, content: "content of \(title)", unlockAt: "2027-06-01T12:00:00Z",
                                                        cipher: cipher, coupleID: pair.pair.coupleID)
                return try await client.call(.post, "\(pair.base)/capsules", token: token, json: body)
            }
            var ids: [String] = []
            for (token, title) in [(couple.a.accessToken, "one"), (couple.b.accessToken, "two"), (couple.a.accessToken, "three")] {
                let created = try await create(couple, token, title)
                #expect(created.status == .created, "\(created.text)")
                ids.append(client.object(created)["id"] as? String ?? "")
            }
            for token in [couple.a.accessToken, couple.b.accessToken] {
                let refused = try await create(couple, token, "four")
                #expect(refused.status == .conflict, "\(refused.text)")
                #expect(refused.errorCode == "capsule_limit_reached")
                #expect(refused.text.contains("a couple keeps at most 3 capsules"), "\(refused.text)")
            }
            #expect(try await DatesFixtures.count("closer_capsules", where: "couple_id", is: couple.pair.coupleID, on: app.database.sql) == 3)
            // Another couple's count is its own.
            #expect(try await create(other, other.a.accessToken, "elsewhere").status == .created)

            // Deleting a locked capsule makes room for one more, and only one.
            #expect(try await client.call(.delete, "\(couple.base)/capsules/\(ids[0])", token: couple.a.accessToken).status == .noContent)
            #expect(try await create(couple, couple.b.accessToken, "four").status == .created)
            #expect(try await create(couple, couple.b.accessToken, "five").errorCode == "capsule_limit_reached")
            #expect(try await DatesFixtures.count("closer_capsules", where: "couple_id", is: couple.pair.coupleID, on: app.database.sql) == 3)
        }
    }
}
