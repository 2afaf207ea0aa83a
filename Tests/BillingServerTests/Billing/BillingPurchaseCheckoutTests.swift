@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredTestSupport
import Testing

/// Pulse's combined checkout (`create-round-checkout`): a one-time item with an optional
/// subscription in one Stripe Checkout, the purchase recorded on verification (never a plan).
@Suite struct BillingPurchaseCheckoutTests {
    static let day: Int64 = 86_400

    @Test func aRoundWithTheSubscriptionIsOneSessionAndAnActiveSubscriberIsNotChargedAgain() async throws {
        let fake = FakeProviders()
        try await BillingSyncTests.run(fake: fake) { application, client in
            let session = try await client.signUp("round@example.com", app: "pulse")
            let user = session.user.id
            let response = try await client.call(
                .post, "/v1/billing/stripe/purchase", app: "pulse", token: session.accessToken,
                json: #"{"itemPriceId":"pc_round","subscriptionPriceId":"pc_1m","reference":"page-42"}"#
            )
            #expect(response.status == .created, "\(response.text)")
            let id = "cs_test_\(user)"
            #expect(response.text == #"{"includesSubscription":true,"sessionId":"\#(id)","url":"https://checkout.stripe.com/c/pay/\#(id)"}"#)
            let request = try #require(fake.requests.last)
            #expect(request.contains(
                "mode=subscription&line_items%5B0%5D%5Bprice%5D=pc_round&line_items%5B0%5D%5Bquantity%5D=1"
                    + "&line_items%5B1%5D%5Bprice%5D=pc_1m&line_items%5B1%5D%5Bquantity%5D=1"
            ), "\(request)")
            #expect(request.contains("subscription_data%5Bmetadata%5D%5BuserId%5D=\(user)"))
            #expect(request.contains("metadata%5BitemPriceId%5D=pc_round&metadata%5Breference%5D=page-42"))

            // Once subscribed, the same page sells the round alone (mode payment).
            let purchase = BillingFixtures.revenueCat(
                id: "rc-round", type: "INITIAL_PURCHASE", user: user, product: "pc_1y", expiresAt: BillingFixtures.now + 300 * Self.day,
                eventAt: BillingFixtures.now - 60, original: "otx-round"
            )
            #expect(try await client.revenueCatWebhook(purchase).status == .ok)
            await application.drainInbox()
            let again = try await client.call(
                .post, "/v1/billing/stripe/purchase", app: "pulse", token: session.accessToken,
                json: #"{"itemPriceId":"pc_round","subscriptionPriceId":"pc_1m"}"#
            )
            #expect(again.status == .created)
            #expect(again.text.contains(#""includesSubscription":false"#))
            let single = try #require(fake.requests.last)
            #expect(single.contains("mode=payment&line_items%5B0%5D%5Bprice%5D=pc_round&line_items%5B0%5D%5Bquantity%5D=1&success_url"), "\(single)")
            #expect(single.contains("payment_intent_data%5Bmetadata%5D%5BuserId%5D=\(user)"))
            #expect(!single.contains("pc_1m"))
        }
    }

    @Test func onlyTheAppsOwnItemsAndPlansAreSoldAndOnlyToPermanentAccounts() async throws {
        let fake = FakeProviders()
        try await BillingSyncTests.run(fake: fake) { _, client in
            let session = try await client.signUp("picky@example.com", app: "pulse")
            for body in [
                #"{"itemPriceId":"price_other"}"#,
                #"{"itemPriceId":"pc_1m"}"#,  // a subscription is not a one-time item
                #"{"itemPriceId":"pc_round","subscriptionPriceId":"pc_round"}"#,  // nor the reverse
                #"{"itemPriceId":"pc_round","subscriptionPriceId":"closer_premium_monthly"}"#,  // another app's plan
            ] {
                let refused = try await client.call(.post, "/v1/billing/stripe/purchase", app: "pulse", token: session.accessToken, json: body)
                #expect(refused.text == envelope("unknown_price", "this price is not a product of the app"), "\(body)")
            }
            for body in [#"{}"#, #"{"itemPriceId":"pc round"}"#, #"{"itemPriceId":"pc_round","reference":"\#(String(repeating: "x", count: 101))"}"#] {
                let bad = try await client.call(.post, "/v1/billing/stripe/purchase", app: "pulse", token: session.accessToken, json: body)
                #expect(bad.status == .badRequest, "\(body): \(bad.text)")
            }
            let anonymous = try await client.anonymous(app: "pulse")
            let refused = try await client.call(
                .post, "/v1/billing/stripe/purchase", app: "pulse", token: anonymous.accessToken, json: #"{"itemPriceId":"pc_round"}"#
            )
            #expect(refused.errorCode == "upgrade_required")
            #expect(fake.requests.filter { $0.hasPrefix("POST /v1/checkout/sessions") }.isEmpty)
        }
    }

    @Test("verifying a paid round records it once, as a purchase and not a plan", arguments: Backend.all)
    func verifyRecordsThePurchaseOnce(backend: Backend) async throws {
        let fake = FakeProviders()
        try await BillingSyncTests.run(backend, fake: fake) { application, client in
            let session = try await client.signUp("paid-round@example.com", app: "pulse")
            let user = session.user.id
            fake.update { state in
                state.sessions["cs_test_round"] = [
                    "id": "cs_test_round", "object": "checkout.session", "status": "complete", "payment_status": "paid",
                    "mode": "payment", "client_reference_id": user, "customer": "cus_R", "livemode": true,
                    "amount_total": 1299, "currency": "usd",
                    "metadata": ["userId": user, "itemPriceId": "pc_round", "reference": "page-42"],
                ]
            }
            for _ in 0..<2 {
                let verified = try await client.call(
                    .post, "/v1/billing/stripe/verify", app: "pulse", token: session.accessToken, json: #"{"sessionId":"cs_test_round"}"#
                )
                #expect(verified.status == .ok)
                #expect(verified.text.contains(
                    #""purchases":[{"amountTotal":1299,"createdAt":\#(BillingFixtures.now * 1000),"currency":"usd","id":"cs_test_round","#
                        + #""item":"pulse-round","priceId":"pc_round","reference":"page-42","sandbox":false}]"#
                ), "\(verified.text)")
                #expect(verified.text.contains(#""plans":[]"#))
                #expect(verified.text.contains(#""state":"unknown""#))
            }
            let listed = try await client.call(.get, "/v1/me/subscription", app: "pulse", token: session.accessToken)
            #expect(listed.text.contains(#""item":"pulse-round""#))
            // The purchase is the user's data: exported, and gone with the account.
            let export = try await client.call(.get, "/v1/me/export", app: "pulse", token: session.accessToken)
            #expect(export.text.contains(#""session_id":"cs_test_round""#), "\(export.text)")
            let deleted = try await client.call(.delete, "/v1/me", app: "pulse", token: session.accessToken)
            #expect(deleted.status == .noContent)
            let left = try await application.database.sql.select().column("session_id").from("kindred_billing_purchases").all()
            #expect(left.isEmpty)
        }
    }
}
