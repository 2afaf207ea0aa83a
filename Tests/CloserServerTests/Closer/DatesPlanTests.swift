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

/// Date plans: from a match or free text, edited by both partners, draft → planned → completed
/// in the couple's zone, with the history kept; typed refusals.
@Suite struct DatesPlanTests {
    @Test(arguments: Backend.all)
    func aPlanFromAMatchGoesThroughItsLifecycleWithHistory(backend: Backend) async throws {
        let clock = TestClock()
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("plan")
            _ = try await client.swipe(couple, "food-006", "love", token: couple.a.accessToken)
            let match = client.object(try await client.swipe(couple, "food-006", "love", token: couple.b.accessToken))["match"] as? [String: Any]
            let matchID = match?["id"] as? String ?? ""

            let created = try await client.call(.post, "\(couple.base)/dates/plans", token: couple.a.accessToken, json: #"{"matchId":"\#(matchID)"}"#)
            #expect(created.status == .created, "\(created.text)")
            var plan = client.object(created)
            let planID = plan["id"] as? String ?? ""
            #expect(plan["title"] as? String == "Take a cooking class")
            #expect(plan["ideaId"] as? String == "food-006")
            #expect(plan["matchId"] as? String == matchID)
            #expect(plan["status"] as? String == "draft")
            #expect(plan["timeZone"] as? String == "America/Chicago")
            #expect(plan["revision"] as? Int == 1)
            #expect(plan["startsAt"] == nil)

            // The partner edits the title, then schedules it.
            clock.advance(by: .seconds(60))
            let path = "\(couple.base)/dates/plans/\(planID)"
            plan = client.object(try await client.call(.patch, path, token: couple.b.accessToken, json: #"{"title":"Pasta class","notes":"Bring aprons"}"#))
            #expect(plan["title"] as? String == "Pasta class")
            #expect(plan["updatedBy"] as? String == couple.b.user.id)
            #expect(plan["revision"] as? Int == 2)
            let planned = try await client.call(
                .patch, path, token: couple.b.accessToken, json: #"{"date":"2026-12-24","time":"19:30","status":"planned","expectedRevision":2}"#
            )
            #expect(planned.status == .ok, "\(planned.text)")
            plan = client.object(planned)
            #expect(plan["status"] as? String == "planned")
            // 19:30 in Chicago on 24 December (UTC−6) is 01:30 UTC on the 25th.
            #expect(plan["startsAt"] as? String == "2026-12-25T01:30:00Z")
            // A stale revision is refused; a no-op edit makes no revision.
            let stale = try await client.call(.patch, path, token: couple.a.accessToken, json: #"{"notes":"x","expectedRevision":2}"#)
            #expect(stale.status == .conflict && stale.errorCode == "plan_revision_conflict", "\(stale.text)")
            #expect(client.object(try await client.call(.patch, path, token: couple.a.accessToken, json: #"{"title":"Pasta class"}"#))["revision"] as? Int == 3)

            let done = client.object(try await client.call(.patch, path, token: couple.a.accessToken, json: #"{"status":"completed"}"#))
            #expect(done["status"] as? String == "completed")
            #expect(done["completedAt"] is String)
            let back = try await client.call(.patch, path, token: couple.b.accessToken, json: #"{"status":"draft"}"#)
            #expect(back.status == .conflict && back.errorCode == "invalid_status_transition", "\(back.text)")

            let read = client.object(try await client.call(.get, path, token: couple.b.accessToken))
            let history = read["history"] as? [[String: Any]] ?? []
            #expect(history.map { $0["revision"] as? Int } == [1, 2, 3, 4])
            #expect(history.map { $0["kind"] as? String } == ["created", "edited", "status", "status"])
            #expect(history.map { $0["status"] as? String } == ["draft", "draft", "planned", "completed"])
            #expect(history.map { $0["userId"] as? String } == [couple.a.user.id, couple.b.user.id, couple.b.user.id, couple.a.user.id])
            #expect(history[2]["date"] as? String == "2026-12-24" && history[2]["time"] as? String == "19:30")

            let list = try await client.call(.get, "\(couple.base)/dates/plans", token: couple.a.accessToken)
            #expect(client.ids(list, "plans") == [planID])
            #expect((client.object(list)["plans"] as? [[String: Any]])?.first?["history"] == nil)
            let events = try await DatesFixtures.events(of: couple.pair.coupleID, on: app.database.sql)
            #expect(events.filter { $0 == "closer.date_plan_updated" }.count == 4)
        }
    }

    @Test(arguments: Backend.all)
    func aFreePlanWithADateStartsPlanned(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("freeplan")
            let created = try await client.call(
                .post, "\(couple.base)/dates/plans", token: couple.b.accessToken, json: #"{"title":"  Picnic by the river  ","date":"2026-07-04"}"#
            )
            #expect(created.status == .created, "\(created.text)")
            let plan = client.object(created)
            #expect(plan["title"] as? String == "Picnic by the river")
            #expect(plan["status"] as? String == "planned")
            #expect(plan["matchId"] == nil)
            #expect(plan["startsAt"] as? String == "2026-07-04T05:00:00Z")
            // draft → completed skips a step.
            let draft = client.object(try await client.call(.post, "\(couple.base)/dates/plans", token: couple.a.accessToken, json: #"{"title":"Someday"}"#))
            let skip = try await client.call(.patch, "\(couple.base)/dates/plans/\(draft["id"] as? String ?? "")", token: couple.a.accessToken, json: #"{"status":"completed"}"#)
            #expect(skip.status == .conflict && skip.errorCode == "invalid_status_transition")
            let undated = try await client.call(.patch, "\(couple.base)/dates/plans/\(draft["id"] as? String ?? "")", token: couple.a.accessToken, json: #"{"status":"planned"}"#)
            #expect(undated.status == .badRequest && undated.errorCode == "invalid_date_plan")
        }
    }

    @Test(arguments: Backend.all)
    func badPlansGetTypedErrors(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("badplan")
            let other = try await client.datesCouple("badplan-other")
            let long = String(repeating: "x", count: 201)
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{}"#, .badRequest, "invalid_date_plan"),
                (#"{"title":"\#(long)"}"#, .badRequest, "invalid_date_plan"),
                (#"{"title":"   "}"#, .badRequest, "invalid_date_plan"),
                (#"{"title":"a","notes":"\#(String(repeating: "n", count: 2001))"}"#, .badRequest, "invalid_date_plan"),
                (#"{"title":"a","date":"2026-02-30"}"#, .badRequest, "invalid_date_plan"),
                (#"{"title":"a","date":"26-02-03"}"#, .badRequest, "invalid_date_plan"),
                (#"{"title":"a","date":"2026-02-03","time":"24:00"}"#, .badRequest, "invalid_date_plan"),
                (#"{"title":"a","time":"10:00"}"#, .badRequest, "invalid_date_plan"),
                (#"{"matchId":"\#(UUID().uuidString.lowercased())"}"#, .notFound, "date_match_not_found"),
            ]
            for (body, status, code) in cases {
                let response = try await client.call(.post, "\(couple.base)/dates/plans", token: couple.a.accessToken, json: body)
                #expect(response.status == status && response.errorCode == code, "\(body.prefix(80)): \(response.text)")
            }
            let plan = client.object(try await client.call(.post, "\(couple.base)/dates/plans", token: couple.a.accessToken, json: #"{"title":"Ours"}"#))
            let path = "\(couple.base)/dates/plans/\(plan["id"] as? String ?? "")"
            let status = try await client.call(.patch, path, token: couple.a.accessToken, json: #"{"status":"cancelled"}"#)
            #expect(status.status == .badRequest && status.errorCode == "invalid_date_plan")
            let title = try await client.call(.patch, path, token: couple.a.accessToken, json: #"{"title":"\#(long)"}"#)
            #expect(title.status == .badRequest && title.errorCode == "invalid_date_plan")
            // Another couple's member sees neither this couple nor its plan.
            #expect(try await client.call(.get, path, token: other.a.accessToken).errorCode == "couple_not_found")
            let foreign = "\(other.base)/dates/plans/\(plan["id"] as? String ?? "")"
            #expect(try await client.call(.get, foreign, token: other.a.accessToken).errorCode == "date_plan_not_found")
            #expect(try await client.call(.patch, foreign, token: other.a.accessToken, json: #"{"title":"Mine"}"#).errorCode == "date_plan_not_found")
        }
    }
}
