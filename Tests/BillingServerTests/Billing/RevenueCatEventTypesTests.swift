@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The RevenueCat event types the sequence tests do not cover, each after a purchase of
/// `pc_1m` (30 days): the plan entry it appends, or that it leaves access alone.
extension RevenueCatEventTests {
    /// One case: the event (built from the purchase's user), and the entries expected after it.
    struct TypeCase: Sendable, CustomTestStringConvertible {
        var type: String
        var extra: [String: String] = [:]
        var expiresAt: Int64?
        var expected: [(kind: PlanKind, product: String, expiration: Int64)]
        var testDescription: String { type }
    }

    static let typeCases: [TypeCase] = [
        TypeCase(type: "PRODUCT_CHANGE", extra: ["new_product_id": "pc_1y"], expiresAt: now + 365 * day, expected: [
            (.purchase, "pc_1m", now + 30 * day), (.renewal, "pc_1y", now + 365 * day),
        ]),
        TypeCase(type: "UNCANCELLATION", expiresAt: now + 40 * day, expected: [
            (.purchase, "pc_1m", now + 30 * day), (.renewal, "pc_1m", now + 40 * day),
        ]),
        TypeCase(type: "SUBSCRIPTION_EXTENDED", expiresAt: now + 45 * day, expected: [
            (.purchase, "pc_1m", now + 30 * day), (.renewal, "pc_1m", now + 45 * day),
        ]),
        TypeCase(type: "TEMPORARY_ENTITLEMENT_GRANT", expiresAt: now + 31 * day, expected: [
            (.purchase, "pc_1m", now + 30 * day), (.renewal, "pc_1m", now + 31 * day),
        ]),
        // Lifetime: no expiration means 9999-12-31T23:59:59Z.
        TypeCase(type: "NON_RENEWING_PURCHASE", extra: ["original_transaction_id": "otx-life"], expiresAt: nil, expected: [
            (.purchase, "pc_1m", now + 30 * day), (.purchase, "pc_1m", 253_402_300_799),
        ]),
        // Stored and acknowledged; access unchanged.
        TypeCase(type: "BILLING_ISSUE", expiresAt: now + 30 * day, expected: [(.purchase, "pc_1m", now + 30 * day)]),
        TypeCase(type: "A_FUTURE_TYPE", expiresAt: now + 90 * day, expected: [(.purchase, "pc_1m", now + 30 * day)]),
    ]

    @Test("each RevenueCat event type appends what it means", arguments: Backend.all, typeCases)
    func eventType(backend: Backend, typeCase: TypeCase) async throws {
        try await Self.run(backend) { application, client, _ in
            let user = try await client.signUp("type-\(typeCase.type.lowercased())@example.com", app: "pulse").user.id
            var event = BillingFixtures.revenueCat(
                id: "t2", type: typeCase.type, user: user, expiresAt: typeCase.expiresAt, eventAt: Self.now
            )
            event = try Self.adding(typeCase.extra, to: event)
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "t1", type: "INITIAL_PURCHASE", user: user, expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 100),
                event,
            ], application, client)
            let plans = try await Self.plans(user, application)
            #expect(plans.map(\.kind) == typeCase.expected.map(\.kind))
            #expect(plans.map(\.productID) == typeCase.expected.map(\.product))
            #expect(plans.map(\.expiration) == typeCase.expected.map(\.expiration))
            let events = try await application.billing.detail(userID: user)?.events ?? []
            #expect(events.map(\.eventID).sorted() == ["t1", "t2"])  // every type is stored
            #expect(try await application.subscription(of: user).state == .active)
        }
    }

    @Test("SUBSCRIBER_ALIAS links the aliases, and later events naming only an alias reach the user", arguments: Backend.all)
    func subscriberAlias(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let user = try await client.signUp("alias@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "a1", type: "SUBSCRIBER_ALIAS", user: user, eventAt: Self.now - 10, aliases: [user, "$RCAnonymousID:abc"]),
                BillingFixtures.revenueCat(id: "a2", type: "INITIAL_PURCHASE", user: "$RCAnonymousID:abc", expiresAt: Self.now + 30 * Self.day, eventAt: Self.now),
            ], application, client)
            let detail = try await application.billing.detail(userID: user)
            #expect(detail?.links.map(\.externalID) == ["$RCAnonymousID:abc"])
            #expect(detail?.plans.map(\.eventID) == ["a2"])
            #expect(try await application.subscription(of: user).latestExpiration == Self.now + 30 * Self.day)
        }
    }

    /// `body` (a webhook JSON) with `extra` set on its event.
    static func adding(_ extra: [String: String], to body: String) throws -> String {
        guard !extra.isEmpty else { return body }
        var object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        var event = try #require(object["event"] as? [String: Any])
        for (key, value) in extra { event[key] = value }
        object["event"] = event
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}
