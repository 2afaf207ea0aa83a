import KindredAPI
import OpenAPIRuntime

/// Billing's client operations of the core contract (`/v1/me/subscription*`,
/// `/v1/me/entitlements`, `/v1/billing/stripe/*`), served by the `SubscriptionService` billing provides.
extension APIHandler {
    func getMySubscription(_ input: Operations.GetMySubscription.Input) async throws -> Operations.GetMySubscription.Output {
        let user = try await authenticatedUser()
        return .ok(.init(body: .json(try await subscriptions.subscription(of: user))))
    }

    func getMySubscriptionDocument(
        _ input: Operations.GetMySubscriptionDocument.Input
    ) async throws -> Operations.GetMySubscriptionDocument.Output {
        let user = try await authenticatedUser()
        return .ok(.init(body: .json(try await subscriptions.document(of: user))))
    }

    func syncMySubscription(_ input: Operations.SyncMySubscription.Input) async throws -> Operations.SyncMySubscription.Output {
        let user = try await authenticatedUser()
        var force = false
        if case .json(let body) = input.body { force = body.force ?? false }
        return .ok(.init(body: .json(try await subscriptions.ensureActiveOrSync(user, force: force))))
    }

    func getMyEntitlements(_ input: Operations.GetMyEntitlements.Input) async throws -> Operations.GetMyEntitlements.Output {
        let user = try await authenticatedUser()
        return .ok(.init(body: .json(try await subscriptions.entitlements(of: user))))
    }

    func createStripeCheckout(_ input: Operations.CreateStripeCheckout.Input) async throws -> Operations.CreateStripeCheckout.Output {
        let user = try await authenticatedUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await subscriptions.checkout(user, priceID: body.priceId))))
    }

    func createStripePurchaseCheckout(
        _ input: Operations.CreateStripePurchaseCheckout.Input
    ) async throws -> Operations.CreateStripePurchaseCheckout.Output {
        let user = try await authenticatedUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await subscriptions.purchaseCheckout(
            user, itemPriceID: body.itemPriceId, subscriptionPriceID: body.subscriptionPriceId, reference: body.reference
        ))))
    }

    func verifyStripeCheckout(_ input: Operations.VerifyStripeCheckout.Input) async throws -> Operations.VerifyStripeCheckout.Output {
        let user = try await authenticatedUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await subscriptions.verify(user, sessionID: body.sessionId))))
    }
}
