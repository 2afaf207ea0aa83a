@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Every billing route a device calls, against each kind of caller (the shared `PolicyCaller`s),
/// on both backends with fake Stripe and RevenueCat servers. A live session of the app may read
/// its own subscription and entitlements and ask for a sync; buying (checkout) and verifying a
/// checkout need a permanent account (403 `upgrade_required` for an anonymous one).
@Suite struct BillingAuthorizationMatrixTests {
    /// Method, path, body, and what an allowed caller gets: its status, and the anonymous
    /// caller's status and code where they differ.
    static let routes: [(method: HTTPRequest.Method, path: String, body: String?, permanent: Int, anonymous: (Int, String?))] = [
        (.get, "/v1/me/subscription", nil, 200, (200, nil)),
        (.get, "/v1/me/subscription/document", nil, 200, (200, nil)),
        (.get, "/v1/me/entitlements", nil, 200, (200, nil)),
        (.post, "/v1/me/subscription/sync", #"{"force":true}"#, 200, (200, nil)),
        (.post, "/v1/billing/stripe/checkout", #"{"priceId":"closer_premium_monthly"}"#, 201, (403, "upgrade_required")),
        // Closer sells no one-time item: the permanent caller is let through to the price check.
        (.post, "/v1/billing/stripe/purchase", #"{"itemPriceId":"closer_gift"}"#, 400, (403, "upgrade_required")),
        // A session that is not this account's: 404 for the owner's kind of caller.
        (.post, "/v1/billing/stripe/verify", #"{"sessionId":"cs_test_unknown"}"#, 404, (403, "upgrade_required")),
    ]

    @Test(arguments: Backend.all, PolicyCaller.allCases)
    func everyBillingRouteAnswersEachCallerAsTheRulesSay(backend: Backend, caller: PolicyCaller) async throws {
        let fake = FakeProviders()
        try await fake.run { base in
            try await TestApplication.run(
                on: backend, clock: TestClock(start: BillingFixtures.start), billing: BillingSyncTests.settings(base)
            ) { application, client in
                for (index, route) in Self.routes.enumerated() {
                    let token = try await caller.token(index: index, application: application, client: client)
                    let response = try await client.call(route.method, route.path, token: token, json: route.body)
                    let label = "\(route.method) \(route.path) as \(caller): \(response.text.prefix(200))"
                    switch caller {
                    case .permanent:
                        #expect(Int(response.status.code) == route.permanent, "\(label)")
                    case .anonymous:
                        #expect(Int(response.status.code) == route.anonymous.0, "\(label)")
                        if let code = route.anonymous.1 { #expect(response.errorCode == code, "\(label)") }
                    default:
                        #expect(Int(response.status.code) == caller.expected.status, "\(label)")
                        #expect(response.errorCode == caller.expected.code, "\(label)")
                    }
                }
            }
        }
    }

    @Test func theEleventhSyncInAnHourIsRateLimited() async throws {
        let fake = FakeProviders()
        try await fake.run { base in
            try await TestApplication.run(
                on: .sqlite, clock: TestClock(start: BillingFixtures.start), billing: BillingSyncTests.settings(base)
            ) { _, client in
                let session = try await client.signUp("sync-limit@example.com", app: "pulse")
                var statuses: [Int] = []
                for _ in 0..<11 {
                    let response = try await client.call(
                        .post, "/v1/me/subscription/sync", app: "pulse", token: session.accessToken, json: #"{"force":true}"#
                    )
                    statuses.append(Int(response.status.code))
                    if response.status == .tooManyRequests {
                        #expect(response.errorCode == "rate_limited")
                        #expect(response.headers[.retryAfter].flatMap { Int($0) }.map { $0 > 0 } == true)
                    }
                }
                #expect(statuses == Array(repeating: 200, count: 10) + [429])
            }
        }
    }
}
