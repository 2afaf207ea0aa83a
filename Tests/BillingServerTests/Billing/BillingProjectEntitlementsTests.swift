@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Several RevenueCat projects feed one app, each with its own entitlement names: a sync counts
/// a subscription only when it grants one of its own project's names.
@Suite struct BillingProjectEntitlementsTests {
    static let now = BillingFixtures.now
    static let day: Int64 = 86_400

    static func subscription(id: String, lookupKey: String, days: Int64, lineage: String) -> [String: Any] {
        [
            "object": "subscription", "id": id, "product_id": "pc_1m",
            "current_period_ends_at": (now + days * day) * 1000, "ends_at": (now + days * day) * 1000,
            "gives_access": true, "status": "active", "environment": "production", "store": "app_store",
            "store_subscription_identifier": lineage,
            "entitlements": ["object": "list", "items": [["object": "entitlement", "id": "e-\(id)", "lookup_key": lookupKey]]],
        ]
    }

    @Test(arguments: Backend.all)
    func eachProjectCountsItsOwnEntitlementNames(backend: Backend) async throws {
        let fake = FakeProviders()
        try await fake.run { base in
            var settings = BillingSyncTests.settings(base)
            settings.revenueCatProjects = [
                .init(id: "ios", app: .pulse, apiKey: "sk_rc_ios", entitlements: ["plus"]),
                .init(id: "android", app: .pulse, apiKey: "sk_rc_android", entitlements: ["premium"]),
            ]
            try await TestApplication.run(on: backend, clock: TestClock(start: BillingFixtures.start), billing: settings) { application, client in
                let session = try await client.signUp("projects@example.com", app: "pulse")
                let user = session.user.id
                fake.update { state in
                    // In the iOS project `premium` is some other product's entitlement: not counted.
                    state.revenueCat["ios/\(user)"] = [Self.subscription(id: "ios-1", lookupKey: "premium", days: 400, lineage: "otx-ios")]
                    state.revenueCat["android/\(user)"] = [Self.subscription(id: "and-1", lookupKey: "premium", days: 30, lineage: "GPA.9")]
                }
                let response = try await client.call(
                    .post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken, json: #"{"force":true}"#
                )
                #expect(response.status == .ok)
                #expect(response.text.contains(#""latestExpiration":\#(Self.now + 30 * Self.day)"#))
                let lineages = try await application.billing.detail(userID: user)?.plans.map(\.lineage)
                #expect(lineages == ["GPA.9"])

                // The iOS project's own name counts there.
                fake.update { state in
                    state.revenueCat["ios/\(user)"] = [Self.subscription(id: "ios-2", lookupKey: "plus", days: 400, lineage: "otx-ios")]
                }
                let again = try await client.call(
                    .post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken, json: #"{"force":true}"#
                )
                #expect(again.text.contains(#""latestExpiration":\#(Self.now + 400 * Self.day)"#))
            }
        }
    }
}
