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

/// Checkout, verify and the two provider syncs against local fake Stripe and RevenueCat servers.
@Suite struct BillingSyncTests {
    static let now = BillingFixtures.now
    static let day: Int64 = 86_400

    static func settings(_ base: URL) -> BillingSettings {
        var settings = BillingFixtures.settings()
        settings.stripeAPIKey = "sk_test_fake"
        settings.stripeBaseURL = base
        settings.revenueCatBaseURL = base
        settings.revenueCatProjects = [.init(id: "proj1", app: .pulse, apiKey: "sk_rc_proj1")]
        return settings
    }

    static func run(
        _ backend: Backend = .sqlite, fake: FakeProviders,
        _ body: @escaping @Sendable (TestApplication, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await fake.run { base in
            try await TestApplication.run(
                on: backend, clock: TestClock(start: BillingFixtures.start), billing: Self.settings(base), body
            )
        }
    }

    @Test func checkoutCarriesTheUserIDAndReturnsTheURL() async throws {
        let fake = FakeProviders()
        try await Self.run(fake: fake) { _, client in
            let session = try await client.signUp("buyer@example.com", app: "pulse")
            let response = try await client.call(
                .post, "/v1/billing/stripe/checkout", app: "pulse", token: session.accessToken, json: #"{"priceId":"pc_1m"}"#
            )
            #expect(response.status == .created)
            let id = "cs_test_\(session.user.id)"
            #expect(response.text == #"{"sessionId":"\#(id)","url":"https://checkout.stripe.com/c/pay/\#(id)"}"#)
            let request = try #require(fake.requests.first)
            #expect(request.hasPrefix("POST /v1/checkout/sessions | Bearer sk_test_fake | mode=subscription&line_items%5B0%5D%5Bprice%5D=pc_1m"))
            #expect(request.contains("client_reference_id=\(session.user.id)"))
            #expect(request.contains("metadata%5BuserId%5D=\(session.user.id)"))
            #expect(request.contains("subscription_data%5Bmetadata%5D%5BuserId%5D=\(session.user.id)"))

            let unknown = try await client.call(
                .post, "/v1/billing/stripe/checkout", app: "pulse", token: session.accessToken, json: #"{"priceId":"price_other"}"#
            )
            #expect(unknown.text == envelope("unknown_price", "this price is not a product of the app"))
            let anonymous = try await client.anonymous(app: "pulse")
            let refused = try await client.call(
                .post, "/v1/billing/stripe/checkout", app: "pulse", token: anonymous.accessToken, json: #"{"priceId":"pc_1m"}"#
            )
            #expect(refused.errorCode == "upgrade_required")
        }
    }

    @Test("verify appends the subscription and links the customer", arguments: Backend.all)
    func verify(backend: Backend) async throws {
        let fake = FakeProviders()
        try await Self.run(backend, fake: fake) { application, client in
            let session = try await client.signUp("verify@example.com", app: "pulse")
            let other = try await client.signUp("other@example.com", app: "pulse")
            let user = session.user.id
            let end = Self.now + 30 * Self.day
            fake.update { state in
                state.sessions["cs_test_ok"] = [
                    "id": "cs_test_ok", "object": "checkout.session", "status": "complete", "payment_status": "paid",
                    "client_reference_id": user, "customer": "cus_V", "metadata": ["userId": user],
                    "subscription": BillingFixtures.stripeSubscription(id: "sub_V", customer: "cus_V", user: user, periodEnd: end),
                ]
                state.sessions["cs_test_open"] = [
                    "id": "cs_test_open", "object": "checkout.session", "status": "open", "payment_status": "unpaid",
                    "client_reference_id": user,
                ]
            }
            let verified = try await client.call(
                .post, "/v1/billing/stripe/verify", app: "pulse", token: session.accessToken, json: #"{"sessionId":"cs_test_ok"}"#
            )
            #expect(verified.status == .ok)
            #expect(verified.text.contains(#""state":"active""#))
            #expect(verified.text.contains(#""eventId":"verify:stripe:sub_V:\#(end)""#))
            #expect(verified.text.contains(#""latestExpiration":\#(end)"#))
            let links = try await application.billing.detail(userID: user)?.links.map(\.externalID)
            #expect(links == ["cus_V"])
            // Verifying again appends nothing (same expiration).
            _ = try await client.call(.post, "/v1/billing/stripe/verify", app: "pulse", token: session.accessToken, json: #"{"sessionId":"cs_test_ok"}"#)
            #expect(try await application.billing.detail(userID: user)?.plans.count == 1)

            let foreign = try await client.call(
                .post, "/v1/billing/stripe/verify", app: "pulse", token: other.accessToken, json: #"{"sessionId":"cs_test_ok"}"#
            )
            #expect(foreign.text == envelope("checkout_not_found", "no such checkout session for this account"))
            let open = try await client.call(
                .post, "/v1/billing/stripe/verify", app: "pulse", token: session.accessToken, json: #"{"sessionId":"cs_test_open"}"#
            )
            #expect(open.status == .conflict)
            #expect(open.errorCode == "checkout_incomplete")
        }
    }

    @Test("ensureActiveOrSync runs both syncs, tries aliases on 404 and flags double billing", arguments: Backend.all)
    func syncBoth(backend: Backend) async throws {
        let fake = FakeProviders()
        try await Self.run(backend, fake: fake) { application, client in
            let session = try await client.signUp("sync@example.com", app: "pulse")
            let user = session.user.id
            try await application.database.sql.insert(into: "kindred_billing_links")
                .columns("provider", "external_id", "user_id", "created_at")
                .values(SQLBind("stripe"), SQLBind("cus_S"), SQLBind(user), SQLBind(Int64(1)))
                .values(SQLBind("revenuecat"), SQLBind("$RCAnonymousID:z"), SQLBind(user), SQLBind(Int64(2)))
                .run()
            fake.update { state in
                state.subscriptions["cus_S"] = [
                    BillingFixtures.stripeSubscription(id: "sub_S", customer: "cus_S", user: user, periodEnd: Self.now + 10 * Self.day)
                ]
                state.revenueCat["proj1/$RCAnonymousID:z"] = [[
                    "object": "subscription", "id": "sub1a2b", "customer_id": "$RCAnonymousID:z", "product_id": "pc_1y",
                    "current_period_ends_at": (Self.now + 300 * Self.day) * 1000, "ends_at": (Self.now + 300 * Self.day) * 1000,
                    "gives_access": true, "status": "active", "environment": "production", "store": "app_store",
                    "store_subscription_identifier": "otx-sync",
                    "entitlements": ["object": "list", "items": [["object": "entitlement", "id": "entl1", "lookup_key": "plus"]]],
                ]]
            }
            let response = try await client.call(.post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken, json: "{}")
            #expect(response.status == .ok)
            #expect(response.text.contains(#""state":"active""#))
            #expect(response.text.contains(#""doubleBilling":true"#))
            #expect(response.text.contains(#""latestExpiration":\#(Self.now + 300 * Self.day)"#))
            #expect(response.text.contains(#""syncErrors":[]"#))
            let rcRequests = fake.requests.filter { $0.hasPrefix("GET /v2/") }.map { $0.components(separatedBy: " | ").prefix(2).joined(separator: " | ") }
            let encodedUser = user
            #expect(rcRequests == [
                "GET /v2/projects/proj1/customers/\(encodedUser) | Bearer sk_rc_proj1",
                "GET /v2/projects/proj1/customers/%24RCAnonymousID%3Az | Bearer sk_rc_proj1",
                "GET /v2/projects/proj1/customers/%24RCAnonymousID%3Az/subscriptions | Bearer sk_rc_proj1",
            ])
            let flagged = try await application.billing.doubleBilled()
            #expect(flagged.map(\.userID) == [user])

            // Access granted: no sync without force.
            let before = fake.requests.count
            _ = try await client.call(.post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken)
            #expect(fake.requests.count == before)
        }
    }

    @Test func aFailingProviderIsReportedAndTheOtherStillCounts() async throws {
        let fake = FakeProviders()
        try await Self.run(fake: fake) { application, client in
            let session = try await client.signUp("half@example.com", app: "pulse")
            try await application.database.sql.insert(into: "kindred_billing_links")
                .columns("provider", "external_id", "user_id", "created_at")
                .values(SQLBind("stripe"), SQLBind("cus_F"), SQLBind(session.user.id), SQLBind(Int64(1)))
                .run()
            fake.update { state in
                state.stripeFailure = 500
                state.revenueCat["proj1/\(session.user.id)"] = [[
                    "object": "subscription", "id": "sub9", "product_id": "pc_1w", "current_period_ends_at": (Self.now + 7 * Self.day) * 1000,
                    "gives_access": true, "status": "trialing", "environment": "production", "store": "play_store",
                    "store_subscription_identifier": "GPA.1",
                ]]
            }
            let response = try await client.call(
                .post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken, json: #"{"force":true}"#
            )
            #expect(response.text.contains(#""syncErrors":["stripe"]"#))
            #expect(response.text.contains(#""state":"trialing""#))
            #expect(response.text.contains(#""platform":"android""#))
            #expect(response.text.contains(#""planType":"pulsecheck-weekly""#))
        }
    }
}
