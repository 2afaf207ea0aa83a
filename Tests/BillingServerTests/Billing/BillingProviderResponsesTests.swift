@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredTestSupport
import SQLKit
import Testing

/// Support's view of what the providers last answered a user's sync: kept per provider,
/// redacted (no keys, no personal fields), shown to operators, deleted with the account.
@Suite struct BillingProviderResponsesTests {
    @Test func redactionKeepsIdentifiersAndDropsSecretsAndPersonalFields() {
        let body = Data(#"""
            {"id":"cus_1","object":"customer","email":"dora@example.com","name":"Dora","phone":"+44 20",
             "address":{"line1":"1 Road"},"metadata":{"userId":"u1","display_name":"D"},
             "items":[{"lookup_key":"plus","client_secret":"pi_secret_x","price":{"id":"pc_1m"}}],
             "customer_email":null}
            """#.utf8)
        let redacted = ProviderResponseLog.redacted(body)
        #expect(redacted == #"{"address":"[redacted]","customer_email":null,"email":"[redacted]","id":"cus_1","items":[{"client_secret":"[redacted]","lookup_key":"plus","price":{"id":"pc_1m"}}],"metadata":{"display_name":"[redacted]","userId":"u1"},"name":"[redacted]","object":"customer","phone":"[redacted]"}"#)
        #expect(ProviderResponseLog.redacted(Data("<html>bad gateway</html>".utf8)) == "[24 bytes, not JSON]")
        #expect(ProviderResponseLog.redacted(Data()) == "")
    }

    @Test("a sync keeps each provider's last answers, redacted", arguments: Backend.all)
    func aSyncKeepsTheLastAnswersRedacted(backend: Backend) async throws {
        let fake = FakeProviders()
        try await BillingSyncTests.run(backend, fake: fake) { application, client in
            let session = try await client.signUp("raw@example.com", app: "pulse")
            let user = session.user.id
            try await application.database.sql.insert(into: "kindred_billing_links")
                .columns("provider", "external_id", "user_id", "created_at")
                .values(SQLBind("stripe"), SQLBind("cus_raw"), SQLBind(user), SQLBind(Int64(0)))
                .run()
            fake.update { state in
                state.stripeFailure = 500
                state.revenueCat["proj1/\(user)"] = [[
                    "object": "subscription", "id": "sub_raw", "product_id": "pc_1m", "customer_email": "raw@example.com",
                    "current_period_ends_at": (BillingFixtures.now + 86_400) * 1000, "gives_access": true, "status": "active",
                    "environment": "production", "store": "app_store", "store_subscription_identifier": "otx-raw",
                ]]
            }
            let synced = try await client.call(
                .post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken, json: #"{"force":true}"#
            )
            #expect(synced.text.contains(#""syncErrors":["stripe"]"#))
            let responses = try #require(try await application.billing.detail(userID: user)?.responses)
            #expect(responses.map(\.provider) == [.stripe, .revenuecat])
            let stripe = try #require(responses.first)
            #expect(stripe.outcome.contains("500"))
            #expect(stripe.exchanges.contains(#""path":"/v1/subscriptions?customer=cus_raw&status=all&limit=100""#), "\(stripe.exchanges)")
            #expect(stripe.exchanges.contains(#""status":500"#))
            let revenueCat = try #require(responses.last)
            #expect(revenueCat.outcome == "ok")
            #expect(revenueCat.exchanges.contains(#""path":"/v2/projects/proj1/customers/\#(user)/subscriptions""#))
            #expect(revenueCat.exchanges.contains(#"\"customer_email\":\"[redacted]\""#), "\(revenueCat.exchanges)")
            for row in responses {
                #expect(!row.exchanges.contains("raw@example.com"))
                #expect(!row.exchanges.contains("sk_test_fake") && !row.exchanges.contains("sk_rc_proj1"))
            }
            // A later sync replaces them; deleting the account removes them.
            fake.update { $0.stripeFailure = nil }
            _ = try await client.call(.post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken, json: #"{"force":true}"#)
            let replaced = try #require(try await application.billing.detail(userID: user)?.responses.first)
            #expect(replaced.outcome == "ok")
            let deleted = try await client.call(.delete, "/v1/me", app: "pulse", token: session.accessToken)
            #expect(deleted.status == .noContent)
            let left = try await application.database.sql.select().column("user_id").from("kindred_billing_provider_responses").all()
            #expect(left.isEmpty)
        }
    }
}
