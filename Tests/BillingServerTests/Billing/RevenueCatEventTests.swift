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

/// RevenueCat event sequences through the webhook and the inbox, on SQLite and PostgreSQL:
/// purchase, renewal, cancellation, refund, expiration, transfer, aliases, duplicates, out of order.
@Suite struct RevenueCatEventTests {
    static let now = BillingFixtures.now
    static let day: Int64 = 86_400

    static func run(
        _ backend: Backend, _ body: @escaping @Sendable (TestApplication, any TestClientProtocol, TestClock) async throws -> Void
    ) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            try await body(application, client, clock)
        }
    }

    /// Sends events in order, each applied before the next is sent.
    static func deliver(_ bodies: [String], _ application: TestApplication, _ client: any TestClientProtocol) async throws {
        for body in bodies {
            let response = try await client.revenueCatWebhook(body)
            #expect(response.status == .ok, "\(response.text)")
            await application.drainInbox()
        }
    }

    static func plans(_ userID: String, _ application: TestApplication) async throws -> [PlanEntry] {
        try await application.billing.detail(userID: userID)?.plans ?? []
    }

    @Test("purchase, renewal, cancellation, expiration", arguments: Backend.all)
    func purchaseRenewalCancellationExpiration(backend: Backend) async throws {
        try await Self.run(backend) { application, client, clock in
            let user = try await client.signUp("rc1@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "e1", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 100),
            ], application, client)
            var snapshot = try await application.subscription(of: user)
            #expect(snapshot.state == .active)
            #expect(snapshot.latestExpiration == Self.now + 30 * Self.day)

            try await Self.deliver([
                BillingFixtures.revenueCat(id: "e1", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 100),
                BillingFixtures.revenueCat(id: "e2", type: "RENEWAL", user: user, expiresAt: Self.now + 60 * Self.day, eventAt: Self.now),
                BillingFixtures.revenueCat(id: "e3", type: "CANCELLATION", user: user, expiresAt: Self.now + 60 * Self.day, eventAt: Self.now + 10, cancelReason: "UNSUBSCRIBE"),
            ], application, client)
            let plans = try await Self.plans(user, application)
            #expect(plans.map(\.kind) == [.purchase, .renewal])
            #expect(plans.map(\.eventID) == ["e1", "e2"])
            #expect(plans.map(\.planType) == ["pulsecheck-monthly", "pulsecheck-monthly"])
            #expect(plans.allSatisfy { $0.provider == .revenuecat && $0.platform == .ios && $0.lineage == "otx-1" })
            snapshot = try await application.subscription(of: user)
            #expect(snapshot.state == .active)  // an ordinary cancellation keeps access until it expires

            clock.advance(by: .seconds(60 * Self.day + 1))
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "e4", type: "EXPIRATION", user: user, expiresAt: Self.now + 60 * Self.day, eventAt: Self.now + 60 * Self.day),
            ], application, client)
            snapshot = try await application.subscription(of: user)
            #expect(snapshot.state == .expired)
            #expect(try await Self.plans(user, application).count == 2)  // same expiration: a no-op
            let events = try await application.billing.detail(userID: user)?.events.map(\.eventID).sorted()
            #expect(events == ["e1", "e2", "e3", "e4"])
        }
    }

    @Test("a refund revokes at once; an expiration before the period end ends access then", arguments: Backend.all)
    func refundRevokes(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let user = try await client.signUp("rc2@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "p", type: "INITIAL_PURCHASE", user: user, product: "pc_1y", expiresAt: Self.now + 365 * Self.day, eventAt: Self.now - 500),
                BillingFixtures.revenueCat(id: "r", type: "CANCELLATION", user: user, product: "pc_1y", expiresAt: Self.now + 365 * Self.day, eventAt: Self.now - 10, cancelReason: "CUSTOMER_SUPPORT"),
            ], application, client)
            let plans = try await Self.plans(user, application)
            #expect(plans.map(\.kind) == [.purchase, .revocation])
            #expect(plans.last?.expiration == Self.now - 10)
            #expect(plans.last?.planType == "pulsecheck-annual")
            let snapshot = try await application.subscription(of: user)
            #expect(snapshot.state == .expired)
            #expect(snapshot.latestExpiration == Self.now - 10)
        }
    }

    @Test("a refund delivered before its purchase still ends access", arguments: Backend.all)
    func refundBeforePurchase(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let user = try await client.signUp("rc2b@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "r", type: "CANCELLATION", user: user, expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 10, cancelReason: "CUSTOMER_SUPPORT"),
                BillingFixtures.revenueCat(id: "p", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 500),
            ], application, client)
            let plans = try await Self.plans(user, application)
            #expect(plans.map(\.eventID) == ["p", "r"])
            #expect(try await application.subscription(of: user).state == .expired)
        }
    }

    @Test("events delivered out of order end in the state of the latest", arguments: Backend.all)
    func outOfOrder(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let user = try await client.signUp("rc3@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "renewal", type: "RENEWAL", user: user, expiresAt: Self.now + 40 * Self.day, eventAt: Self.now),
                // Created ten minutes before the renewal, delivered after it (a retry): still within
                // the webhook's maximum event age (`RevenueCatWebhookAuthTests`).
                BillingFixtures.revenueCat(id: "purchase", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now - Self.day, eventAt: Self.now - 600),
            ], application, client)
            let plans = try await Self.plans(user, application)
            #expect(plans.map(\.eventID) == ["purchase", "renewal"])  // listed by provider event time
            let snapshot = try await application.subscription(of: user)
            #expect(snapshot.state == .active)
            #expect(snapshot.latestExpiration == Self.now + 40 * Self.day)
        }
    }

    @Test("a transfer moves access from transferred_from to transferred_to", arguments: Backend.all)
    func transfer(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let from = try await client.signUp("from@example.com", app: "pulse").user.id
            let to = try await client.signUp("to@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "buy", type: "INITIAL_PURCHASE", user: from, expiresAt: Self.now + 20 * Self.day, eventAt: Self.now - 100),
                BillingFixtures.revenueCat(id: "move", type: "TRANSFER", user: nil, eventAt: Self.now, transferredFrom: [from], transferredTo: [to]),
            ], application, client)
            #expect(try await application.subscription(of: from).state == .expired)
            let target = try await application.subscription(of: to)
            #expect(target.state == .active)
            #expect(target.latestExpiration == Self.now + 20 * Self.day)
            #expect(try await Self.plans(from, application).map(\.kind) == [.purchase, .transferOut])
            #expect(try await Self.plans(to, application).map(\.kind) == [.transferIn])
        }
    }

    @Test("users are found through aliases, which are remembered", arguments: Backend.all)
    func aliases(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let user = try await client.signUp("alias@example.com", app: "pulse").user.id
            let anonymous = "$RCAnonymousID:4f1c"
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "a1", type: "INITIAL_PURCHASE", user: anonymous, expiresAt: Self.now + Self.day, eventAt: Self.now - 10, aliases: [anonymous, user]),
                BillingFixtures.revenueCat(id: "a2", type: "RENEWAL", user: anonymous, expiresAt: Self.now + 2 * Self.day, eventAt: Self.now),
            ], application, client)
            let detail = try await application.billing.detail(userID: user)
            #expect(detail?.plans.map(\.eventID) == ["a1", "a2"])
            #expect(detail?.links.map(\.externalID) == [anonymous])
        }
    }

    @Test("unknown types and sandbox purchases are stored without granting access", arguments: Backend.all)
    func unknownAndSandbox(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let user = try await client.signUp("sandbox@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "future", type: "SOMETHING_NEW", user: user, eventAt: Self.now),
                BillingFixtures.revenueCat(id: "sb", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now + Self.day, eventAt: Self.now, environment: "SANDBOX"),
            ], application, client)
            let detail = try await application.billing.detail(userID: user)
            #expect(detail?.events.first { $0.eventID == "future" }?.outcome == "ignored: SOMETHING_NEW does not change access")
            #expect(detail?.plans.map(\.sandbox) == [true])
            #expect(detail?.snapshot.state == .expired)
        }
    }

    @Test("entitlements per app, hasPremium on /v1/me and the realtime event", arguments: Backend.all)
    func entitlements(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let closer = try await client.signUp("closer@example.com", app: "closer")
            let eraser = try await client.anonymous(app: "exeraser")
            #expect(await application.entitlements.closerPremium(userID: closer.user.id) == false)
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "c1", type: "INITIAL_PURCHASE", user: closer.user.id, product: "closer_premium_monthly", expiresAt: Self.now + Self.day, eventAt: Self.now),
                BillingFixtures.revenueCat(id: "x1", type: "INITIAL_PURCHASE", user: eraser.user.id, product: "healing_pass", expiresAt: Self.now + Self.day, eventAt: Self.now, original: "otx-x"),
            ], application, client)
            #expect(await application.entitlements.closerPremium(userID: closer.user.id))
            #expect(await application.entitlements.closerPremium(userID: eraser.user.id) == false)
            #expect(await application.entitlements.tier(userID: eraser.user.id) == "healing_pass")

            let me = try await client.call(.get, "/v1/me", app: "closer", token: closer.accessToken)
            #expect(me.text.contains(#""hasPremium":true"#))
            let entitlements = try await client.call(.get, "/v1/me/entitlements", app: "closer", token: closer.accessToken)
            #expect(entitlements.status == .ok)
            #expect(entitlements.text == #"{"app":"closer","entitlements":[{"active":true,"expiresAt":\#(Self.now + Self.day),"name":"premium"}],"state":"active","tier":"premium"}"#)
            let tier = try await client.call(.get, "/v1/me/entitlements", app: "exeraser", token: eraser.accessToken)
            #expect(tier.text.contains(#""tier":"healing_pass""#))

            let published = try await application.database.sql.select().columns("type", "data").from("kindred_realtime_events")
                .where("channel", .equal, "user:\(closer.user.id)").where("type", .equal, "billing.entitlements").all()
            #expect(published.count == 1)
            #expect(try published.first?.decode(column: "data", as: String.self).contains(#""tier":"premium""#) == true)

            let subscription = try await client.call(.get, "/v1/me/subscription", app: "closer", token: closer.accessToken)
            #expect(subscription.text.contains(#""state":"active""#))
            #expect(subscription.text.contains(#""eventId":"c1""#))
            #expect(subscription.text.contains(#""provider":"revenuecat""#))
        }
    }
}

extension RevenueCatEventTests {
    @Test("account deletion removes the billing rows; export lists them", arguments: Backend.all)
    func deletionAndExport(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let session = try await client.signUp("gone@example.com", app: "pulse")
            let heir = try await client.signUp("heir@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "d1", type: "INITIAL_PURCHASE", user: session.user.id, expiresAt: Self.now + Self.day, eventAt: Self.now, aliases: ["$RCAnonymousID:d"]),
                BillingFixtures.revenueCat(
                    id: "d2", type: "TRANSFER", user: nil, eventAt: Self.now + 1, transferredFrom: [session.user.id], transferredTo: [heir]
                ),
            ], application, client)
            let export = try await client.call(.get, "/v1/me/export", app: "pulse", token: session.accessToken)
            #expect(export.text.contains(#""billing":{"#))
            #expect(export.text.contains(#""event_id":"d1""#))
            #expect(export.text.contains(#""from_id":"\#(session.user.id)""#))  // the transfer away from this user
            let deleted = try await client.call(.delete, "/v1/me", app: "pulse", token: session.accessToken)
            #expect(deleted.status == .noContent)
            for table in ["kindred_billing_plans", "kindred_billing_heads", "kindred_billing_events", "kindred_billing_links", "kindred_billing_subscriptions"] {
                let rows = try await application.database.sql.select().column("user_id").from(table)
                    .where("user_id", .equal, session.user.id).all()
                #expect(rows.isEmpty, "\(table)")
            }
            let transfers = try await application.database.sql.select().column("event_id").from("kindred_billing_transfers")
                .where("from_id", .equal, session.user.id).all()
            #expect(transfers.isEmpty)
        }
    }
}
