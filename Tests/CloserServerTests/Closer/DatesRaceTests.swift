@testable import CloserServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `createDateMatchOnMutualLove` under races: both partners love the same idea at the same
/// moment (each twice), many times over; every idea ends with exactly one match, found by at
/// least one of the swipes, and each partner gets exactly one push per match.
@Suite struct DatesRaceTests {
    @Test(arguments: Backend.all)
    func concurrentMutualLovesMakeExactlyOneMatchEach(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let couple = try await client.datesCouple("race")
            let ideas = (1...20).map { String(format: "adventure-%03d", $0) } + (1...10).map { String(format: "budget-%03d", $0) }
            for idea in ideas {
                let matchIDs = try await withThrowingTaskGroup(of: String?.self) { group in
                    for token in [couple.a.accessToken, couple.b.accessToken, couple.a.accessToken, couple.b.accessToken] {
                        group.addTask {
                            let response = try await client.swipe(couple, idea, "love", token: token)
                            #expect(response.status == .ok, "\(response.text)")
                            return (client.object(response)["match"] as? [String: Any])?["id"] as? String
                        }
                    }
                    var ids: [String?] = []
                    for try await id in group { ids.append(id) }
                    return ids
                }
                let found = Set(matchIDs.compactMap { $0 })
                #expect(found.count == 1, "\(idea): \(matchIDs)")
            }
            let sql = app.database.sql
            #expect(try await DatesFixtures.count("closer_date_matches", where: "couple_id", is: couple.pair.coupleID, on: sql) == ideas.count)
            let perIdea = try await sql.select().column("idea_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("closer_date_matches").groupBy("idea_id").all().map { try $0.decode(column: "n", as: Int.self) }
            #expect(perIdea == Array(repeating: 1, count: ideas.count))
            let pushesA = try await DatesFixtures.notifications(of: couple.a.user.id, on: sql).filter { $0 == "date_match" }
            let pushesB = try await DatesFixtures.notifications(of: couple.b.user.id, on: sql).filter { $0 == "date_match" }
            #expect(pushesA.count == ideas.count && pushesB.count == ideas.count)
            let events = try await DatesFixtures.events(of: couple.pair.coupleID, on: sql).filter { $0 == "closer.date_match" }
            #expect(events.count == ideas.count)
            let page = try await client.call(.get, "\(couple.base)/dates/matches?limit=100", token: couple.a.accessToken)
            #expect(Set(client.ids(page, "matches", field: "ideaId")) == Set(ideas))
        }
    }
}
