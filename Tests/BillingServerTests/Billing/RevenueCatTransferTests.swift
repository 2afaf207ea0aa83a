@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// `TRANSFER` whatever the delivery order: before the purchase it moves, after it, and with an
/// older renewal of the source delivered after the transfer.
extension RevenueCatEventTests {
    /// The order the purchase and the transfer are delivered in.
    enum TransferOrder: String, CaseIterable, Sendable, CustomStringConvertible {
        case purchaseFirst
        case transferFirst
        var description: String { rawValue }
    }

    @Test("a transfer ends the source's lineage and continues it for the target in either order", arguments: Backend.all, TransferOrder.allCases)
    func transferInEitherOrder(backend: Backend, order: TransferOrder) async throws {
        try await Self.run(backend) { application, client, _ in
            let from = try await client.signUp("tf-from@example.com", app: "pulse").user.id
            let to = try await client.signUp("tf-to@example.com", app: "pulse").user.id
            let purchase = BillingFixtures.revenueCat(
                id: "buy", type: "INITIAL_PURCHASE", user: from, expiresAt: Self.now + 20 * Self.day, eventAt: Self.now - 100
            )
            let transfer = BillingFixtures.revenueCat(
                id: "move", type: "TRANSFER", user: nil, eventAt: Self.now, transferredFrom: [from], transferredTo: [to]
            )
            try await Self.deliver(order == .purchaseFirst ? [purchase, transfer] : [transfer, purchase], application, client)
            let source = try await application.subscription(of: from)
            #expect(source.state == .expired)
            #expect(source.latestExpiration == Self.now)
            let target = try await application.subscription(of: to)
            #expect(target.state == .active)
            #expect(target.latestExpiration == Self.now + 20 * Self.day)
            #expect(try await Self.plans(from, application).map(\.kind) == [.purchase, .transferOut])
            let moved = try await Self.plans(to, application)
            #expect(moved.map(\.kind) == [.transferIn])
            #expect(moved.map(\.eventID) == ["move"])
            #expect(moved.map(\.lineage) == ["otx-1"])
            #expect(await application.entitlements.hasAccess(userID: to))
            #expect(await application.entitlements.hasAccess(userID: from) == false)
        }
    }

    @Test("renewals of the source from before the transfer, delivered after it, follow it; later ones stay", arguments: Backend.all)
    func lateRenewalFollowsTransfer(backend: Backend) async throws {
        try await Self.run(backend) { application, client, _ in
            let from = try await client.signUp("tl-from@example.com", app: "pulse").user.id
            let to = try await client.signUp("tl-to@example.com", app: "pulse").user.id
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "move", type: "TRANSFER", user: nil, eventAt: Self.now, transferredFrom: [from], transferredTo: [to]),
                BillingFixtures.revenueCat(id: "renew", type: "RENEWAL", user: from, expiresAt: Self.now + 40 * Self.day, eventAt: Self.now - 50),
                BillingFixtures.revenueCat(id: "buy", type: "INITIAL_PURCHASE", user: from, expiresAt: Self.now + 10 * Self.day, eventAt: Self.now - 100),
            ], application, client)
            let target = try await application.subscription(of: to)
            #expect(target.state == .active)
            #expect(target.latestExpiration == Self.now + 40 * Self.day)  // the older purchase does not shorten it
            #expect(try await application.subscription(of: from).state == .expired)
            #expect(try await Self.plans(to, application).map(\.expiration) == [Self.now + 40 * Self.day])

            // A purchase by the source after the transfer is the source's own.
            try await Self.deliver([
                BillingFixtures.revenueCat(id: "again", type: "INITIAL_PURCHASE", user: from, expiresAt: Self.now + 5 * Self.day, eventAt: Self.now + 60, original: "otx-2"),
            ], application, client)
            #expect(try await application.subscription(of: from).state == .active)
            #expect(try await Self.plans(to, application).count == 1)
        }
    }
}
