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

/// The 30/60/90-day check-ins: dates in the couple's zone (across a DST change), once per key
/// and member, both members read both answers, typed refusals.
@Suite struct OutcomesTests {
    @Test(arguments: Backend.all)
    func checkInsOpenOnTheirLocalDayAndAreWrittenOnce(backend: Backend) async throws {
        // 10:00 CDT in Chicago; day 30 falls after the switch to CST (1 November 2026).
        let clock = TestClock(start: try instant("2026-10-05T15:00:00Z"))
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("outcomes")
            let cipher = try GamesFixtures.cipher()
            let id = couple.pair.coupleID
            let list = client.object(try await client.call(.get, "\(couple.base)/outcomes", token: couple.b.accessToken))
            #expect(list["timeZone"] as? String == "America/Chicago")
            let checkIns = list["checkIns"] as? [[String: Any]] ?? []
            #expect(checkIns.compactMap { $0["key"] as? String } == ["day_0", "day_30", "day_60", "day_90"])
            #expect(checkIns.compactMap { $0["date"] as? String } == ["2026-10-05", "2026-11-04", "2026-12-04", "2027-01-03"])
            #expect(checkIns.compactMap { $0["opensAt"] as? String } == [
                "2026-10-05T05:00:00Z", "2026-11-04T06:00:00Z", "2026-12-04T06:00:00Z", "2027-01-03T06:00:00Z",
            ])
            #expect(checkIns.compactMap { $0["answerable"] as? Bool } == [true, false, false, false])

            let answersA = try OverTimeFixtures.answers("We feel hopeful", cipher: cipher, coupleID: id)
            let written = try await client.call(.put, "\(couple.base)/outcomes/day_0", token: couple.a.accessToken, json: answersA)
            #expect(written.status == .created, "\(written.text)")
            #expect((client.object(written)["entries"] as? [[String: Any]])?.count == 1)
            let again = try await client.call(.put, "\(couple.base)/outcomes/day_0", token: couple.a.accessToken, json: answersA)
            #expect(again.status == .conflict && again.errorCode == "outcome_exists")

            // The partner reads the member's answer and opens it with the couple key.
            let seen = (client.object(try await client.call(.get, "\(couple.base)/outcomes", token: couple.b.accessToken))["checkIns"] as? [[String: Any]])?
                .first?["entries"] as? [[String: Any]] ?? []
            #expect(seen.count == 1 && seen.first?["userId"] as? String == couple.a.user.id)
            #expect(try cipher.decryptText(seen.first?["answers"] as? String ?? "", coupleId: id) == "We feel hopeful")

            let early = try await client.call(
                .put, "\(couple.base)/outcomes/day_30", token: couple.b.accessToken, json: try OverTimeFixtures.answers("early", cipher: cipher, coupleID: id)
            )
            #expect(early.status == .conflict && early.errorCode == "outcome_not_due", "\(early.text)")
            #expect(early.text.contains("2026-11-04"))
            // One second before local midnight (CST) of day 30, then midnight itself.
            clock.set(try instant("2026-11-04T05:59:59Z"))
            let tokenB = try await client.freshToken("outcomes-b@example.com")
            #expect(try await client.call(.put, "\(couple.base)/outcomes/day_30", token: tokenB, json: answersA).errorCode == "outcome_not_due")
            clock.set(try instant("2026-11-04T06:00:00Z"))
            let due = try await client.call(.put, "\(couple.base)/outcomes/day_30", token: tokenB, json: answersA)
            #expect(due.status == .created, "\(due.text)")
            // Still open days later, and day 0 too.
            clock.set(try instant("2026-11-20T12:00:00Z"))
            let laterB = try await client.freshToken("outcomes-b@example.com")
            #expect(try await client.call(.put, "\(couple.base)/outcomes/day_0", token: laterB, json: answersA).status == .created)

            let events = try await DatesFixtures.events(of: id, on: app.database.sql)
            #expect(events.filter { $0 == "closer.outcome_submitted" }.count == 3)
        }
    }

    @Test(arguments: Backend.all)
    func badCheckInsGetTypedErrors(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("badoutcomes")
            let other = try await client.datesCouple("badoutcomes-other")
            let good = try OverTimeFixtures.answers("fine", cipher: try GamesFixtures.cipher(), coupleID: couple.pair.coupleID)
            for key in ["day_1", "day_31", "DAY_0", "x"] {
                let response = try await client.call(.put, "\(couple.base)/outcomes/\(key)", token: couple.a.accessToken, json: good)
                #expect(response.status == .badRequest && response.errorCode == "invalid_outcome_key", "\(key)")
            }
            for answers in ["plain words", "enc:v1:", "enc:v2:QUJD", "enc:v1:not base64!"] {
                let response = try await client.call(.put, "\(couple.base)/outcomes/day_0", token: couple.a.accessToken, json: #"{"answers":"\#(answers)"}"#)
                #expect(response.status == .badRequest && response.errorCode == "invalid_outcome", "\(answers)")
            }
            let huge = #"{"answers":"enc:v1:\#(String(repeating: "A", count: 16_384))"}"#
            let tooLarge = try await client.call(.put, "\(couple.base)/outcomes/day_0", token: couple.a.accessToken, json: huge)
            #expect(tooLarge.status.code == 413 && tooLarge.errorCode == "outcome_too_large")
            #expect(try await client.call(.put, "\(couple.base)/outcomes/day_0", token: couple.a.accessToken, json: "{}").errorCode == "bad_request")
            let stranger = try await client.call(.put, "\(couple.base)/outcomes/day_0", token: other.a.accessToken, json: good)
            #expect(stranger.status == .notFound && stranger.errorCode == "couple_not_found")
            #expect(try await client.call(.get, "\(couple.base)/outcomes", token: other.b.accessToken).errorCode == "couple_not_found")
            // Nothing was written by the refusals.
            let list = client.object(try await client.call(.get, "\(couple.base)/outcomes", token: couple.a.accessToken))
            #expect((list["checkIns"] as? [[String: Any]] ?? []).allSatisfy { ($0["entries"] as? [Any])?.isEmpty == true })
        }
    }
}
