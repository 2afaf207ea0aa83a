@testable import EraserServer
@testable import KindredServer
@testable import KindredServerCore
import Foundation
import HummingbirdTesting
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `POST /v1/analytics/events`: only the seed's five events with bounded properties, stored with
/// nothing that points at the sender, on SQLite and PostgreSQL.
@Suite struct EraserAnalyticsTests {
    static func run(
        _ backend: Backend, _ body: @escaping @Sendable (TestApplication, any TestClientProtocol, TestClock) async throws -> Void
    ) async throws {
        let clock = TestClock(start: EraserFixtures.start)
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            try await body(application, client, clock)
        }
    }

    @Test(arguments: Backend.all)
    func aBatchIsStoredWithTheHourAndNothingAboutTheSender(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let session = try await client.anonymous(app: "exeraser")
            let body = EraserFixtures.batch([
                EraserFixtures.event(
                    "scan_started", at: "2025-06-15T14:59:59Z",
                    properties: #"{"phases":["faces","calendar"],"referencePhotos":3,"librarySize":"1000-9999"}"#
                ),
                EraserFixtures.event(
                    "scan_completed",
                    properties: #"{"outcome":"completed","durationSeconds":640,"matches":"10-99","phases":["faces"]}"#
                ),
                EraserFixtures.event("vault_action", properties: #"{"items":12,"mediaType":"photo"}"#),
                EraserFixtures.event("delete_action", properties: #"{"items":3,"mediaType":"mixed"}"#),
                EraserFixtures.event("cooling_off_reversal", properties: #"{"items":1,"mediaType":"video","daysLeft":2}"#),
                EraserFixtures.event("scan_started"),
            ])
            let response = try await client.eraser(.post, "/v1/analytics/events", token: session.accessToken, json: body)
            #expect(response.status == .accepted, "\(response.text)")
            #expect(response.text == #"{"accepted":6}"#)

            let rows = try await EraserFixtures.storedEvents(on: application.database)
            #expect(rows.count == 6)
            // Every column of every row: an id, the event, canonical properties and the hour.
            #expect(Set(rows.flatMap(\.keys)) == ["id", "event", "properties", "occurred_hour"])
            let start = Int64(EraserFixtures.start.timeIntervalSince1970)
            let hour = start - start % 3600
            let stored = rows.map { [$0["event"] ?? "", $0["properties"] ?? "", $0["occurred_hour"] ?? ""] }
            #expect(stored == [
                ["cooling_off_reversal", #"{"daysLeft":2,"items":1,"mediaType":"video"}"#, "\(hour)"],
                ["delete_action", #"{"items":3,"mediaType":"mixed"}"#, "\(hour)"],
                ["scan_completed", #"{"durationSeconds":640,"matches":"10-99","outcome":"completed","phases":["faces"]}"#, "\(hour)"],
                ["scan_started", #"{"librarySize":"1000-9999","phases":["faces","calendar"],"referencePhotos":3}"#, "1749996000"],
                ["scan_started", "{}", "\(hour)"],
                ["vault_action", #"{"items":12,"mediaType":"photo"}"#, "\(hour)"],
            ])
            // The sender's id is nowhere in the table.
            #expect(!rows.contains { $0.values.contains { $0.contains(session.user.id) } })
        }
    }

    /// A bad event refuses the whole batch, naming where; nothing of the batch is stored.
    @Test(arguments: Backend.all)
    func anythingThatCouldCarryContentOrIdentityIsRefusedWhole(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let token = try await client.anonymous(app: "exeraser").accessToken
            let good = EraserFixtures.event("vault_action", properties: #"{"items":1,"mediaType":"photo"}"#)
            let refusals: [(String, String, String?)] = [
                // The contract's types: unknown events and properties, free text, wrong types.
                (EraserFixtures.event("photo_viewed"), "bad_request", nil),
                (EraserFixtures.event("vault_action", properties: #"{"items":1,"name":"Sam"}"#), "bad_request", nil),
                (EraserFixtures.event("vault_action", properties: #"{"mediaType":"IMG_0001.jpg"}"#), "bad_request", nil),
                (EraserFixtures.event("vault_action", properties: #"{"items":"12"}"#), "bad_request", nil),
                (#"{"event":"vault_action","occurredAt":"\#(EraserFixtures.now)","userId":"u1"}"#, "bad_request", nil),
                (EraserFixtures.event("scan_started", properties: #"{"librarySize":"1234"}"#), "bad_request", nil),
                // The rules the types cannot say.
                (
                    EraserFixtures.event("vault_action", properties: #"{"items":1,"daysLeft":3}"#), "invalid_analytics_event",
                    "events[1].properties.daysLeft is not a property of vault_action"
                ),
                (
                    EraserFixtures.event("scan_started", properties: #"{"referencePhotos":6}"#), "invalid_analytics_event",
                    "body.events[1].properties.referencePhotos is greater than 5"
                ),
                (
                    EraserFixtures.event("delete_action", properties: #"{"items":0}"#), "invalid_analytics_event",
                    "body.events[1].properties.items is less than 1"
                ),
                (
                    EraserFixtures.event("scan_completed", properties: #"{"durationSeconds":86401}"#), "invalid_analytics_event",
                    "body.events[1].properties.durationSeconds is greater than 86400"
                ),
                (
                    EraserFixtures.event("scan_started", properties: #"{"phases":["faces","faces"]}"#), "invalid_analytics_event",
                    "body.events[1].properties.phases has a repeated item"
                ),
                (
                    EraserFixtures.event("scan_started", at: "2025-06-07T00:00:00Z"), "invalid_analytics_event",
                    "events[1].occurredAt must be within the last 7 days and at most 5 minutes ahead"
                ),
                (
                    EraserFixtures.event("scan_started", at: "2025-06-15T15:12:00Z"), "invalid_analytics_event",
                    "events[1].occurredAt must be within the last 7 days and at most 5 minutes ahead"
                ),
            ]
            for (bad, code, message) in refusals {
                let response = try await client.eraser(
                    .post, "/v1/analytics/events", token: token, json: EraserFixtures.batch([good, bad])
                )
                #expect(response.status == .badRequest, "\(bad): \(response.text)")
                #expect(response.errorCode == code, "\(bad): \(response.text)")
                if let message { #expect(response.text.contains(message), "\(response.text)") }
            }
            for body in [#"{"events":[]}"#, EraserFixtures.batch(Array(repeating: good, count: 101)), "{}", "not json"] {
                let response = try await client.eraser(.post, "/v1/analytics/events", token: token, json: body)
                #expect(response.status == .badRequest, "\(body.prefix(40)): \(response.text)")
            }
            #expect(try await EraserFixtures.storedEvents(on: application.database).isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func eachAccountSendsAtMostTheHourlyNumberOfBatches(backend: Backend) async throws {
        try await Self.run(backend) { application, client, clock in
            let session = try await client.anonymous(app: "exeraser")
            let token = session.accessToken
            let other = try await client.anonymous(app: "exeraser").accessToken
            let body = EraserFixtures.batch([EraserFixtures.event("scan_started")])
            for _ in 0..<60 {
                #expect(try await client.eraser(.post, "/v1/analytics/events", token: token, json: body).status == .accepted)
            }
            let refused = try await client.eraser(.post, "/v1/analytics/events", token: token, json: body)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "rate_limited")
            #expect(refused.headers[.retryAfter] != nil)
            // Another account is not affected; the first may send again an hour later.
            #expect(try await client.eraser(.post, "/v1/analytics/events", token: other, json: body).status == .accepted)
            clock.advance(by: .seconds(3601))
            let later = EraserFixtures.batch([EraserFixtures.event("scan_started", at: clock.now().formatted(.iso8601))])
            let fresh = try await client.refreshed(session)
            #expect(try await client.eraser(.post, "/v1/analytics/events", token: fresh, json: later).status == .accepted)
            #expect(try await EraserFixtures.storedEvents(on: application.database).count == 62)
        }
    }
}
