@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The operator's billing tools: the subscriptions table, the detail, refresh, the backfills with
/// their dry-run reports.
@Suite struct BillingAdministrationTests {
    static let now = BillingFixtures.now
    static let day: Int64 = 86_400

    @Test("search, filters, paging and the tri-state Active column", arguments: Backend.all)
    func table(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: TestClock(start: BillingFixtures.start), billing: BillingFixtures.settings()) {
            application, client in
            let alice = try await client.signUp("alice@example.com", app: "pulse").user.id
            let bob = try await client.signUp("bob@example.com", app: "pulse").user.id
            let eraser = try await client.anonymous(app: "exeraser").user.id
            for (index, (user, product, expires)) in [
                (alice, "pc_1y", Self.now + 100 * Self.day), (bob, "pc_1m", Self.now - Self.day), (eraser, "healing_pass", Self.now + Self.day),
            ].enumerated() {
                let body = BillingFixtures.revenueCat(
                    id: "ev\(index)", type: "INITIAL_PURCHASE", user: user, product: product, expiresAt: expires,
                    eventAt: Self.now - 10, original: "otx-\(index)", store: index == 1 ? "PLAY_STORE" : "APP_STORE"
                )
                #expect(try await client.revenueCatWebhook(body).status == .ok)
            }
            await application.drainInbox()
            let admin = application.billing

            let all = try await admin.subscriptions(.init())
            #expect(all.total == 3)
            #expect(all.rows.map(\.record.userID) == [alice, eraser, bob])  // latest expiration first
            #expect(all.rows.map(\.activity) == [.active, .active, .expired])
            #expect(all.rows.first?.record.email == "alice@example.com")
            #expect(all.rows.first?.record.planType == "pulsecheck-annual")
            #expect(all.rows[1].record.email == nil)  // Ex-Eraser: never denormalised

            #expect(try await admin.subscriptions(.init(search: "ALICE@")).rows.map(\.record.userID) == [alice])
            #expect(try await admin.subscriptions(.init(search: "monthly")).rows.map(\.record.userID) == [bob])
            #expect(try await admin.subscriptions(.init(search: bob)).rows.map(\.record.userID) == [bob])
            #expect(try await admin.subscriptions(.init(search: "otx-2")).rows.map(\.record.userID) == [eraser])
            #expect(try await admin.subscriptions(.init(search: "100%")).total == 0)
            #expect(try await admin.subscriptions(.init(status: .expired)).rows.map(\.record.userID) == [bob])
            #expect(try await admin.subscriptions(.init(platform: .android)).rows.map(\.record.userID) == [bob])
            let page = try await admin.subscriptions(.init(limit: 2, offset: 2))
            #expect(page.total == 3)
            #expect(page.rows.map(\.record.userID) == [bob])

            let detail = try #require(try await admin.detail(userID: alice))
            #expect(detail.snapshot.state == .active)
            #expect(detail.plans.map(\.eventID) == ["ev0"])
            #expect(detail.events.map(\.outcome) == ["applied"])
            #expect(try await admin.detail(userID: "no-such-user") == nil)
        }
    }

    @Test("backfill user fields: a dry run reports, then the run writes", arguments: Backend.all)
    func backfillUserFields(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: TestClock(start: BillingFixtures.start), billing: BillingFixtures.settings()) {
            application, client in
            let session = try await client.signUp("tester32@example.com", app: "pulse")
            let body = BillingFixtures.revenueCat(id: "b1", type: "INITIAL_PURCHASE", user: session.user.id, expiresAt: Self.now + Self.day, eventAt: Self.now)
            #expect(try await client.revenueCatWebhook(body).status == .ok)
            await application.drainInbox()
            let renamed = try await client.call(.patch, "/v1/me", app: "pulse", token: session.accessToken, json: #"{"displayName":"tester32"}"#)
            #expect(renamed.status == .ok)

            let dry = try await application.billing.backfillUserFields(dryRun: true)
            #expect(dry.dryRun)
            #expect(dry.examined == 1)
            #expect(dry.changes.map(\.summary) == [#"username: nil → "tester32"; email: "tester32@example.com" → "tester32@example.com""#])
            #expect(try await application.billing.subscriptions(.init()).rows.first?.record.username == nil)

            let run = try await application.billing.backfillUserFields(dryRun: false)
            #expect(run.changes.count == 1)
            #expect(try await application.billing.subscriptions(.init(search: "tester32")).rows.first?.record.username == "tester32")
            #expect(try await application.billing.backfillUserFields(dryRun: true).changes.isEmpty)
        }
    }

    @Test("backfill expiration history from Stripe invoices: dry run, then write", arguments: Backend.all)
    func backfillHistory(backend: Backend) async throws {
        let fake = FakeProviders()
        try await fake.run { base in
            try await TestApplication.run(on: backend, clock: TestClock(start: BillingFixtures.start), billing: BillingSyncTests.settings(base)) {
                application, client in
                let user = try await client.signUp("history@example.com", app: "pulse").user.id
                let current = BillingFixtures.stripeEvent(id: "evt_now", type: "customer.subscription.created", created: Self.now,
                    object: BillingFixtures.stripeSubscription(id: "sub_H", customer: "cus_H", user: user, periodEnd: Self.now + 20 * Self.day))
                #expect(try await client.stripeWebhook(current).status == .ok)
                await application.drainInbox()
                func invoice(_ id: String, start: Int64, end: Int64) -> [String: Any] {
                    ["id": id, "object": "invoice", "status": "paid", "customer": "cus_H", "subscription": "sub_H", "livemode": true,
                     "lines": ["object": "list", "data": [["period": ["start": start, "end": end], "price": ["id": "pc_1m"]]]]]
                }
                fake.update { state in
                    state.invoices["cus_H"] = [
                        invoice("in_3", start: Self.now - 10 * Self.day, end: Self.now + 20 * Self.day),  // already in the history
                        invoice("in_2", start: Self.now - 40 * Self.day, end: Self.now - 10 * Self.day),
                        invoice("in_1", start: Self.now - 70 * Self.day, end: Self.now - 40 * Self.day),
                    ]
                }
                let dry = try await application.billing.backfillExpirationHistory(dryRun: true)
                #expect(dry.examined == 1)
                #expect(dry.changes.map(\.summary) == [
                    "+ renewal sub_H until \(Self.now - 40 * Self.day) (backfill:stripe:in_1)",
                    "+ renewal sub_H until \(Self.now - 10 * Self.day) (backfill:stripe:in_2)",
                ])
                #expect(try await application.billing.detail(userID: user)?.plans.count == 1)

                _ = try await application.billing.backfillExpirationHistory(dryRun: false)
                let detail = try #require(try await application.billing.detail(userID: user))
                #expect(detail.plans.map(\.eventID) == ["backfill:stripe:in_1", "backfill:stripe:in_2", "evt_now"])
                #expect(detail.snapshot.latestExpiration == Self.now + 20 * Self.day)
                #expect(try await application.billing.backfillExpirationHistory(dryRun: true).changes.isEmpty)
            }
        }
    }
}
