@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// A couple joins a challenge, both partners mark days, both see the same progress, the events
/// and the rate-limited pushes, completion and leaving, on both backends.
@Suite struct ChallengesFlowTests {
    @Test(arguments: Backend.all)
    func bothPartnersMarkEveryDayAndTheChallengeCompletes(backend: Backend) async throws {
        // 10:00 in Chicago on 2026-06-15: day 1 of a three-day challenge.
        let clock = TestClock(start: try instant("2026-06-15T15:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("challenge-flow")
            let (a, b) = (couple.a, couple.b)
            let joined = try await client.joinChallenge(couple, "tidy-together-3", token: a.accessToken)
            #expect(joined.status == .created, "\(joined.text)")
            let created = client.object(joined)
            let id = try #require(created["id"] as? String)
            #expect(created["status"] as? String == "active")
            #expect(created["startDate"] as? String == "2026-06-15")
            #expect(created["timeZone"] as? String == "America/Chicago")
            #expect(created["dayCount"] as? Int == 3)
            #expect(created["currentDay"] as? Int == 1)
            #expect(created["todayStep"] as? String == "Set a fifteen-minute timer and tidy one room together with music on.")
            #expect(created["startedBy"] as? String == a.user.id)
            // One active instance per couple and challenge, whoever joins.
            let again = try await client.joinChallenge(couple, "tidy-together-3", token: b.accessToken)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "challenge_already_active")

            // Day 1: A, then B; marking again is a harmless retry.
            #expect(try await client.markDay(couple, id, 1, token: a.accessToken).status == .ok)
            let retry = try await client.markDay(couple, id, 1, token: a.accessToken)
            #expect(retry.status == .ok)
            #expect(ChallengesFixtures.doneCounts(client.object(retry)) == [1, 0])
            // A future day is not open yet; a day the challenge does not have is unprocessable.
            let future = try await client.markDay(couple, id, 2, token: b.accessToken)
            #expect(future.status == .conflict)
            #expect(future.errorCode == "challenge_day_not_open")
            for day in [0, 4, -1] {
                let invalid = try await client.markDay(couple, id, day, token: b.accessToken)
                #expect(invalid.status == .unprocessableContent, "day \(day)")
                #expect(invalid.errorCode == "invalid_challenge_day")
            }
            let both = try await client.markDay(couple, id, 1, token: b.accessToken)
            #expect(ChallengesFixtures.doneBy(client.object(both)) == [[a.user.id, b.user.id], [], []])
            // Both see the same progress.
            for token in [a.accessToken, b.accessToken] {
                let seen = try await client.challengeInstance(couple, id, token: token)
                #expect(ChallengesFixtures.doneCounts(seen) == [1, 1])
                #expect((seen["partners"] as? [[String: Any]])?.map { $0["userId"] as? String } == [a.user.id, b.user.id])
            }

            // Day 3 (two days later): catching up on day 2 is allowed.
            clock.advance(by: .seconds(2 * 86_400))
            let (tokenA, tokenB) = (try await client.freshToken(a), try await client.freshToken(b))
            for token in [tokenA, tokenB] {
                #expect(try await client.markDay(couple, id, 3, token: token).status == .ok)
            }
            #expect(try await client.markDay(couple, id, 2, token: tokenA).status == .ok)
            let last = client.object(try await client.markDay(couple, id, 2, token: tokenB))
            #expect(last["status"] as? String == "completed")
            #expect(last["completedAt"] != nil)
            #expect(last["todayStep"] == nil)
            #expect(ChallengesFixtures.doneCounts(last) == [3, 3])
            #expect((last["partners"] as? [[String: Any]])?.allSatisfy { $0["finished"] as? Bool == true } == true)
            // Over: no more marks, no leaving; a retry of a done day still answers 200.
            #expect(try await client.markDay(couple, id, 2, token: tokenB).status == .ok)
            let closedLeave = try await client.call(.delete, "\(couple.base)/challenges/\(id)", token: tokenA)
            #expect(closedLeave.status == .conflict)
            #expect(closedLeave.errorCode == "challenge_not_active")
            // And it can be joined again.
            let second = try await client.joinedChallenge(couple, "tidy-together-3", token: tokenB)
            let list = try await client.call(.get, "\(couple.base)/challenges", token: tokenA)
            #expect(client.ids(list, "instances") == [second, id])

            let sql = app.database.sql
            #expect(try await DatesFixtures.events(of: couple.pair.coupleID, on: sql).filter { $0.hasPrefix("closer.challenge") } == [
                "closer.challenge_joined", "closer.challenge_day_done", "closer.challenge_day_done", "closer.challenge_day_done",
                "closer.challenge_day_done", "closer.challenge_day_done", "closer.challenge_day_done", "closer.challenge_completed",
                "closer.challenge_joined",
            ])
            // Pushes at most once per 10 minutes per partner: B got the join, then the day-3 mark two days later.
            #expect(try await ChallengesFixtures.pushes(of: b.user.id, on: sql) == [
                "Your partner started a challenge for you both: Three evenings of tidy", "Your partner did day 3 of Three evenings of tidy",
            ])
            #expect(try await ChallengesFixtures.pushes(of: a.user.id, on: sql) == [
                "Your partner did day 1 of Three evenings of tidy", "Your partner did day 3 of Three evenings of tidy",
            ])
        }
    }

    @Test(arguments: Backend.all)
    func eitherPartnerLeavesAndTheBadInputIsRefused(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let couple = try await client.datesCouple("challenge-leave")
            let other = try await client.datesCouple("challenge-other")
            let id = try await client.joinedChallenge(couple, "gratitude-7", token: couple.a.accessToken)
            let left = try await client.call(.delete, "\(couple.base)/challenges/\(id)", token: couple.b.accessToken)
            #expect(left.status == .ok)
            #expect(client.object(left)["status"] as? String == "abandoned")
            #expect(client.object(left)["endedBy"] as? String == couple.b.user.id)
            let mark = try await client.markDay(couple, id, 1, token: couple.a.accessToken)
            #expect(mark.status == .conflict)
            #expect(mark.errorCode == "challenge_not_active")
            #expect(try await DatesFixtures.count("closer_challenge_instances", where: "id", is: id, on: app.database.sql) == 1)
            #expect(try await client.joinChallenge(couple, "gratitude-7", token: couple.b.accessToken).status == .created)

            let unknown = try await client.joinChallenge(couple, "no-such-challenge", token: couple.a.accessToken)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "challenge_not_found")
            let premium = try await client.joinChallenge(couple, "love-notes-10", token: couple.a.accessToken)
            #expect(premium.status == .forbidden)
            #expect(premium.errorCode == "premium_required")
            let noBody = try await client.call(.post, "\(couple.base)/challenges", token: couple.a.accessToken, json: #"{"challenge":"x"}"#)
            #expect(noBody.status == .badRequest)
            // Another couple's instance does not exist for this couple, through either couple's routes.
            let foreign = try await client.challengeInstance(other, id, token: other.a.accessToken)
            #expect((foreign["error"] as? [String: Any])?["code"] as? String == "challenge_instance_not_found")
            let stranger = try await client.call(.get, "\(couple.base)/challenges/\(id)", token: other.a.accessToken)
            #expect(stranger.errorCode == "couple_not_found")
            let badDay = try await client.call(.put, "\(couple.base)/challenges/\(id)/days/one", token: couple.a.accessToken)
            #expect(badDay.status == .badRequest)
        }
    }
}
