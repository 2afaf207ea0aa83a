@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing


/// The inbox's stored envelope and what the webhooks read before acknowledging: the envelope's
/// hand-written JSON reads back as the envelope (whatever the body holds), and an authentic event
/// whose fields beyond id, type and time cannot be read is acknowledged, kept and dead-lettered
/// with a clear error instead of refused.
@Suite struct BillingInboxEnvelopeTests {
    @Test("the envelope's JSON reads back exactly, for bodies with quotes, escapes, control characters and UTF-8")
    func envelopeRoundTrip() throws {
        let bodies = [
            #"{"api_version":"1.0","event":{"id":"e1","type":"RENEWAL"}}"#,
            "quote \" backslash \\ slash / newline \n return \r tab \t nul \u{0} bell \u{7} unit \u{1F} del \u{7F}",
            "Ünïcödé ✓ 日本語 👩‍❤️‍👨 \u{2028}\u{2029}",
            "",
            String(repeating: "\\\"", count: 500),
        ]
        for (index, body) in bodies.enumerated() {
            let envelope = BillingInbox.Envelope(
                provider: index.isMultiple(of: 2) ? .revenuecat : .stripe, eventID: "evt \"\(index)\"\n", type: "TYPÉ\\\(index)",
                body: body, receivedAt: 1_750_000_000_123 + Int64(index)
            )
            let text = envelope.jsonText
            let decoded = try JSONDecoder().decode(BillingInbox.Envelope.self, from: Data(text.utf8))
            #expect(decoded == envelope, "body \(index): \(text)")
            // Valid JSON by an independent parser too, with no raw control character inside.
            #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
            #expect(!text.utf8.contains { $0 < 0x20 }, "body \(index)")
            // And the very bytes JSONEncoder writes with the server's options.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(Array(text.utf8) == Array(try encoder.encode(envelope)), "body \(index)")
        }
    }

    @Test("an authentic RevenueCat event with an unreadable field is acknowledged, then dead-lettered with the reason")
    func unreadableEventIsKept() async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: .sqlite, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let user = try await client.signUp("odd@example.com", app: "pulse").user.id
            let body = #"{"api_version":"1.0","event":{"id":"odd-1","type":"RENEWAL","event_timestamp_ms":1750000000000,"app_user_id":"\#(user)","expiration_at_ms":"next month"}}"#
            let response = try await client.revenueCatWebhook(body)
            #expect(response.status == .ok)
            #expect(response.text == #"{"duplicate":false,"received":true}"#)
            for _ in 0..<3 {
                _ = await application.platform.worker.processAvailable()
                clock.advance(by: .seconds(5))
            }
            let sql = application.database.sql
            let letters = try await sql.raw("SELECT dedupe_key, attempts, last_error, payload FROM kindred_queue_dead_letters").all()
            #expect(letters.count == 1)
            #expect(try letters.first?.decode(column: "dedupe_key", as: String.self) == "revenuecat:odd-1")
            #expect(try letters.first?.decode(column: "attempts", as: Int.self) == 3)
            #expect(try letters.first?.decode(column: "last_error", as: String.self).hasPrefix("unreadable inbox item") == true)
            let payload = try #require(try letters.first?.decode(column: "payload", as: String.self))
            #expect(try JSONDecoder().decode(BillingInbox.Envelope.self, from: Data(payload.utf8)).body == body)
            #expect(try await application.subscription(of: user).state == .unknown)
        }
    }

    @Test("a RevenueCat body without the event's id, type or time is refused with 400 and nothing is queued")
    func headerlessBodiesAreRefused() async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: .sqlite, clock: clock, billing: BillingFixtures.settings()) { application, client in
            for body in [
                #"{"event":{"type":"RENEWAL","event_timestamp_ms":1}}"#,
                #"{"event":{"id":"x","event_timestamp_ms":1}}"#,
                #"{"event":{"id":"x","type":"RENEWAL"}}"#,
                #"{"event":{"id":7,"type":"RENEWAL","event_timestamp_ms":1}}"#,
                #"not json"#,
            ] {
                let response = try await client.revenueCatWebhook(body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == "malformed_event", "\(body)")
            }
            #expect(try await application.platform.queue.pendingCount(queue: BillingInbox.queue) == 0)
        }
    }
}
