@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// `POST /v1/webhooks/stripe` with `Stripe-Signature` headers made by Python's `stripe` package,
/// and the Stripe events' effects, on SQLite and PostgreSQL.
@Suite struct StripeWebhookTests {
    static let now = BillingFixtures.now
    static let day: Int64 = 86_400
    static let body = BillingFixtures.stripeEvent(
        id: "evt_sig", type: "customer.created", created: BillingFixtures.now, object: ["id": "cus_1", "object": "customer"]
    )

    static func app() async throws -> TestApplication {
        try await TestApplication(clock: TestClock(start: BillingFixtures.start), billing: BillingFixtures.settings())
    }

    @Test func aHeaderFromStripesLibraryIsAccepted() async throws {
        try await Self.app().test { client in
            let response = try await client.stripeWebhook(Self.body)
            #expect(response.status == .ok)
            #expect(response.text == #"{"duplicate":false,"received":true}"#)
        }
    }

    @Test func anyMatchingV1IsEnoughAndV0IsIgnored() async throws {
        let good = try BillingFixtures.stripeHeader(payload: Self.body)
        let wrong = try BillingFixtures.stripeHeader(payload: Self.body, secret: "whsec_other")
        let goodV1 = good.split(separator: ",")[1]
        let wrongV1 = wrong.split(separator: ",")[1]
        try await Self.app().test { client in
            let several = try await client.stripeWebhook(Self.body, signature: "t=\(Self.now),\(wrongV1),\(goodV1)")
            #expect(several.status == .ok)
            let v0Only = try await client.stripeWebhook(Self.body, signature: "t=\(Self.now),v0=\(goodV1.dropFirst(3))")
            #expect(v0Only.text == envelope("invalid_webhook_signature", "missing or malformed Stripe-Signature header"))
        }
    }

    @Test func wrongSecretStaleTimestampAndTamperingAre401() async throws {
        try await Self.app().test { client in
            let wrong = try await client.stripeWebhook(Self.body, signature: try BillingFixtures.stripeHeader(payload: Self.body, secret: "whsec_other"))
            #expect(wrong.text == envelope("invalid_webhook_signature", "no Stripe-Signature v1 signature matches"))
            let stale = try await client.stripeWebhook(
                Self.body, signature: try BillingFixtures.stripeHeader(payload: Self.body, timestamp: Self.now - 301)
            )
            #expect(stale.text == envelope("invalid_webhook_signature", "the Stripe-Signature timestamp is outside the tolerance"))
            let edge = try await client.stripeWebhook(
                Self.body, signature: try BillingFixtures.stripeHeader(payload: Self.body, timestamp: Self.now - 300)
            )
            #expect(edge.status == .ok)
            let signed = try BillingFixtures.stripeHeader(payload: Self.body)
            let tampered = try await client.stripeWebhook(Self.body.replacingOccurrences(of: "cus_1", with: "cus_2"), signature: signed)
            #expect(tampered.status == .unauthorized)
        }
    }

    @Test func unconfiguredIs500AndMalformedIs400() async throws {
        try await TestApplication(clock: TestClock(start: BillingFixtures.start)).test { client in
            let response = try await client.stripeWebhook(Self.body)
            #expect(response.status == .internalServerError)
            #expect(response.errorCode == "webhook_not_configured")
        }
        try await Self.app().test { client in
            let response = try await client.stripeWebhook(#"{"id":"evt_1"}"#)
            #expect(response.text == envelope("malformed_event", "the body is not a Stripe event"))
        }
    }

    @Test("checkout, subscription created/updated/deleted and invoice.paid", arguments: Backend.all)
    func lifecycle(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let user = try await client.signUp("web@example.com", app: "pulse").user.id
            let periodEnd = Self.now + 30 * Self.day
            let events = [
                BillingFixtures.stripeEvent(id: "evt_1", type: "checkout.session.completed", created: Self.now - 50, object: [
                    "id": "cs_test_1", "object": "checkout.session", "client_reference_id": user, "customer": "cus_A",
                    "subscription": "sub_A", "status": "complete", "payment_status": "paid", "metadata": ["userId": user],
                ]),
                // Only the customer names the user here: the link from checkout finds them.
                BillingFixtures.stripeEvent(id: "evt_2", type: "customer.subscription.created", created: Self.now - 40,
                    object: BillingFixtures.stripeSubscription(id: "sub_A", customer: "cus_A", user: nil, periodEnd: periodEnd)),
                // The same period again (an update of something else): a no-op.
                BillingFixtures.stripeEvent(id: "evt_3", type: "customer.subscription.updated", created: Self.now - 30,
                    object: BillingFixtures.stripeSubscription(id: "sub_A", customer: "cus_A", user: nil, periodEnd: periodEnd)),
                // An older API version: the period end at the top level.
                BillingFixtures.stripeEvent(id: "evt_4", type: "customer.subscription.updated", created: Self.now - 20,
                    object: BillingFixtures.stripeSubscription(
                        id: "sub_A", customer: "cus_A", user: nil, periodEnd: periodEnd + 30 * Self.day, topLevelPeriodEnd: true)),
                BillingFixtures.stripeEvent(id: "evt_5", type: "invoice.paid", created: Self.now - 10, object: [
                    "id": "in_1", "object": "invoice", "customer": "cus_A", "status": "paid",
                    "parent": ["subscription_details": ["subscription": "sub_A", "metadata": ["userId": user]]],
                    "lines": ["object": "list", "data": [["period": ["start": periodEnd, "end": periodEnd + 60 * Self.day], "price": ["id": "pc_1m"]]]],
                ]),
            ]
            for event in events {
                #expect(try await client.stripeWebhook(event).status == .ok)
                await application.drainInbox()
            }
            var detail = try #require(try await application.billing.detail(userID: user))
            #expect(detail.plans.map(\.eventID) == ["evt_2", "evt_4", "evt_5"])
            #expect(detail.plans.map(\.kind) == [.purchase, .renewal, .renewal])
            #expect(detail.plans.map(\.expiration) == [periodEnd, periodEnd + 30 * Self.day, periodEnd + 60 * Self.day])
            #expect(detail.plans.allSatisfy { $0.platform == .web && $0.provider == .stripe && $0.lineage == "sub_A" })
            #expect(detail.links.map(\.externalID) == ["cus_A"])
            #expect(detail.snapshot.state == .active)

            // Deleted at the end of its period: no append. Deleted with immediate effect: revoked.
            let ended = BillingFixtures.stripeEvent(id: "evt_6", type: "customer.subscription.deleted", created: Self.now,
                object: BillingFixtures.stripeSubscription(
                    id: "sub_A", customer: "cus_A", user: user, status: "canceled", periodEnd: periodEnd + 60 * Self.day,
                    endedAt: Self.now))
            #expect(try await client.stripeWebhook(ended).status == .ok)
            await application.drainInbox()
            detail = try #require(try await application.billing.detail(userID: user))
            #expect(detail.plans.last?.kind == .revocation)
            #expect(detail.plans.last?.expiration == Self.now)
            #expect(detail.snapshot.state == .expired)
        }
    }

    @Test("an event nobody matches is retried, dead-lettered, and re-driven once the link exists", arguments: Backend.all)
    func deadLetterAndRedrive(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let user = try await client.signUp("late@example.com", app: "pulse").user.id
            let early = BillingFixtures.stripeEvent(id: "evt_early", type: "customer.subscription.created", created: Self.now,
                object: BillingFixtures.stripeSubscription(id: "sub_L", customer: "cus_L", user: nil, periodEnd: Self.now + Self.day))
            #expect(try await client.stripeWebhook(early).status == .ok)
            for _ in 0..<3 {
                await application.drainInbox()
                clock.advance(by: .seconds(3))
            }
            let dead = try await application.billing.deadLetters()
            #expect(dead.count == 1)
            #expect(dead.first?.attempts == 3)
            #expect(dead.first?.lastError == "no user matches the stripe ids cus_L")

            let checkout = BillingFixtures.stripeEvent(id: "evt_checkout", type: "checkout.session.completed", created: Self.now, object: [
                "id": "cs_test_L", "object": "checkout.session", "client_reference_id": user, "customer": "cus_L",
                "status": "complete", "payment_status": "paid",
            ])
            #expect(try await client.stripeWebhook(checkout).status == .ok)
            await application.drainInbox()
            #expect(try await application.billing.redriveAll() == 1)
            await application.drainInbox()
            #expect(try await application.billing.deadLetters().isEmpty)
            #expect(try await application.subscription(of: user).state == .active)
            // Re-driving an event that was applied changes nothing (idempotent by event id).
            let applied = try await application.billing.detail(userID: user)?.plans.count
            #expect(applied == 1)
        }
    }

    /// Issue 21, item 14: a signed event whose `created` would overflow in milliseconds used to
    /// trap the worker on every attempt; now it is dead-lettered with the reason, and the inbox
    /// goes on with the next event.
    @Test("an event with an absurd created time is dead-lettered, not a crash", arguments: Backend.all)
    func hugeCreatedIsDeadLettered(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let huge = BillingFixtures.stripeEvent(
                id: "evt_huge", type: "customer.created", created: Int64.max / 100, object: ["id": "cus_H", "object": "customer"]
            )
            #expect(try await client.stripeWebhook(huge).status == .ok)
            #expect(try await client.stripeWebhook(Self.body).status == .ok)
            for _ in 0..<3 {
                await application.drainInbox()
                clock.advance(by: .seconds(3))
            }
            let dead = try await application.billing.deadLetters()
            #expect(dead.count == 1)
            #expect(dead.first?.lastError.contains("not a time between 1970 and 9999") == true, "\(dead)")
        }
    }
}
