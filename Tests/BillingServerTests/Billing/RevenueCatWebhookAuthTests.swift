@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// `POST /v1/webhooks/revenuecat`: configuration, credentials, signatures and malformed bodies.
@Suite struct RevenueCatWebhookAuthTests {
    static let body = BillingFixtures.revenueCat(
        id: "evt-auth", type: "TEST", user: nil, eventAt: BillingFixtures.now
    )

    static func app(_ settings: BillingSettings) async throws -> TestApplication {
        try await TestApplication(clock: TestClock(start: BillingFixtures.start), billing: settings)
    }

    @Test func withoutConfigurationItAnswers500() async throws {
        try await Self.app(BillingSettings()).test { client in
            let response = try await client.revenueCatWebhook(Self.body)
            #expect(response.status == .internalServerError)
            #expect(response.text == envelope("webhook_not_configured", "the RevenueCat webhook is not configured on this server"))
        }
    }

    @Test func missingOrWrongAuthorizationIs401() async throws {
        try await Self.app(BillingFixtures.settings()).test { client in
            let missing = try await client.revenueCatWebhook(Self.body, authorization: nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.errorCode == "invalid_webhook_signature")
            let wrong = try await client.revenueCatWebhook(Self.body, authorization: "Bearer nope")
            #expect(wrong.status == .unauthorized)
        }
    }

    @Test func malformedBodyIs400AndNothingIsQueued() async throws {
        let application = try await Self.app(BillingFixtures.settings())
        try await application.test { client in
            let response = try await client.revenueCatWebhook(#"{"event":{"type":"RENEWAL"}}"#)
            #expect(response.status == .badRequest)
            #expect(response.text == envelope("malformed_event", "the body is not a RevenueCat webhook event"))
            let pending = try await application.platform.queue.pendingCount(queue: BillingInbox.queue)
            #expect(pending == 0)
        }
    }

    @Test func otherMethodsAre405() async throws {
        try await Self.app(BillingFixtures.settings()).test { client in
            let response = try await client.execute(uri: "/v1/webhooks/revenuecat", method: .get, headers: [:])
            #expect(response.status == .methodNotAllowed)
            #expect(response.errorCode == "method_not_allowed")
            let stripe = try await client.execute(uri: "/v1/webhooks/stripe", method: .put, headers: [:])
            #expect(stripe.status == .methodNotAllowed)
        }
    }

    @Test func aTestEventIsAcceptedQueuedAndStored() async throws {
        let application = try await Self.app(BillingFixtures.settings())
        try await application.test { client in
            let response = try await client.revenueCatWebhook(Self.body)
            #expect(response.status == .ok)
            #expect(response.text == #"{"duplicate":false,"received":true}"#)
            let again = try await client.revenueCatWebhook(Self.body)
            #expect(again.text == #"{"duplicate":true,"received":true}"#)
            #expect(try await application.platform.queue.pendingCount(queue: BillingInbox.queue) == 1)
            await application.drainInbox()
            #expect(try await application.platform.queue.pendingCount(queue: BillingInbox.queue) == 0)
            let row = try await application.database.sql.select().columns("type", "outcome").from("kindred_billing_events")
                .where("event_id", .equal, "evt-auth").first()
            #expect(try row?.decode(column: "outcome", as: String.self) == "ignored: test event")
        }
    }

    // MARK: - Replays: the event's age

    @Test func aReplayedEventOlderThanTheMaximumAgeIs422AndNotQueued() async throws {
        var settings = BillingFixtures.settings()
        settings.revenueCatMaxEventAge = .seconds(3_600)
        let application = try await Self.app(settings)
        try await application.test { client in
            // An hour and a second old, and an hour and a second ahead: refused.
            for (id, at) in [("evt-old", BillingFixtures.now - 3_601), ("evt-ahead", BillingFixtures.now + 3_601)] {
                let body = BillingFixtures.revenueCat(id: id, type: "RENEWAL", user: "u1", eventAt: at)
                let response = try await client.revenueCatWebhook(body)
                #expect(response.status == .unprocessableContent)
                #expect(response.text == envelope(
                    "stale_event", "event_timestamp_ms is more than 3600 s from the server's time; reconcile with `kindred billing sync`"))
            }
            #expect(try await application.platform.queue.pendingCount(queue: BillingInbox.queue) == 0)
            // At the limit: accepted.
            let edge = BillingFixtures.revenueCat(id: "evt-edge", type: "RENEWAL", user: "u1", eventAt: BillingFixtures.now - 3_600)
            let accepted = try await client.revenueCatWebhook(edge)
            #expect(accepted.status == .ok)
        }
        // 0 turns the check off: a year-old event is accepted.
        settings.revenueCatMaxEventAge = .zero
        try await Self.app(settings).test { client in
            let old = BillingFixtures.revenueCat(id: "evt-year", type: "RENEWAL", user: "u1", eventAt: BillingFixtures.now - 365 * 86_400)
            let response = try await client.revenueCatWebhook(old)
            #expect(response.status == .ok)
        }
    }

    @Test func theMaximumAgeIsASettingThatRefusesNegativeValues() async throws {
        let resolved = try await ServerSettings.resolve(flags: .init(), environment: [
            "KINDRED_REVENUECAT_MAX_EVENT_AGE_SECONDS": "600",
        ]).server.billing
        #expect(resolved.revenueCatMaxEventAge == .seconds(600))
        #expect(try await ServerSettings.resolve(flags: .init(), environment: [:]).server.billing.revenueCatMaxEventAge == .seconds(86_400))
        await #expect(throws: (any Error).self) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_REVENUECAT_MAX_EVENT_AGE_SECONDS": "-1"])
        }
    }

    // MARK: - Ed25519 signatures

    static func spki(_ key: Curve25519.Signing.PublicKey) -> String {
        Data([0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00] + Array(key.rawRepresentation))
            .base64EncodedString()
    }

    @Test func aConfiguredSigningKeyRequiresAValidSignature() async throws {
        let key = Curve25519.Signing.PrivateKey()
        try await Self.app(BillingFixtures.settings(signingKey: Self.spki(key.publicKey))).test { client in
            let signature = try key.signature(for: Data(Self.body.utf8)).base64EncodedString()
            let good = try await client.revenueCatWebhook(Self.body, signature: signature)
            #expect(good.status == .ok)
            let missing = try await client.revenueCatWebhook(Self.body)
            #expect(missing.status == .unauthorized)
            #expect(missing.text == envelope("invalid_webhook_signature", "missing or malformed X-RevenueCat-Signature"))
            let other = try Curve25519.Signing.PrivateKey().signature(for: Data(Self.body.utf8)).base64EncodedString()
            let forged = try await client.revenueCatWebhook(Self.body, signature: other)
            #expect(forged.text == envelope("invalid_webhook_signature", "X-RevenueCat-Signature does not verify"))
            let tampered = try await client.revenueCatWebhook(Self.body + " ", signature: signature)
            #expect(tampered.status == .unauthorized)
        }
    }

    @Test func aSigningKeyThatIsNotEd25519SPKIIs500() async throws {
        try await Self.app(BillingFixtures.settings(signingKey: "bm90IGEga2V5")).test { client in
            let response = try await client.revenueCatWebhook(Self.body)
            #expect(response.status == .internalServerError)
            #expect(response.errorCode == "webhook_not_configured")
        }
    }
}
