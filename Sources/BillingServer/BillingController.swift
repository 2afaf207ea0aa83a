import KindredServerCore
import Foundation
import KindredAPI
import KindredStore
import Logging

/// The signed-in user's subscription, entitlements and sync, and Stripe checkout/verify.
struct BillingController: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: BillingSettings
    let entitlements: any Entitlements
    let sync: BillingSync
    let rateLimiter: RateLimiter
    let logger: Logger

    /// `GET /v1/me/subscription`.
    func subscription(of user: AuthenticatedUser) async throws -> Components.Schemas.Subscription {
        let plans = try await BillingLedger.plans(of: user.user.id, on: database.sql)
        let purchases = try await BillingLedger.purchases(of: user.user.id, on: database.sql)
        return BillingRepresentation.subscription(
            snapshot: snapshot(plans, app: try Self.app(of: user)), plans: plans, purchases: purchases
        )
    }

    /// `GET /v1/me/subscription/document`: Pulse's document shape.
    func document(of user: AuthenticatedUser) async throws -> Components.Schemas.PulseSubscriptionDocument {
        let now = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        guard let document = try await BillingLedger.document(of: user.user.id, settings: settings, now: now, on: database.sql) else {
            throw KindredError.internal
        }
        return BillingRepresentation.document(document)
    }

    /// `GET /v1/me/entitlements`.
    func entitlements(of user: AuthenticatedUser) async throws -> Components.Schemas.Entitlements {
        let plans = try await BillingLedger.current(of: user.user.id, on: database.sql)
        let app = try Self.app(of: user)
        return BillingRepresentation.entitlements(app: app, snapshot: snapshot(plans, app: app), settings: settings.app(app))
    }

    /// `POST /v1/me/subscription/sync`: Pulse's `ensureActiveOrSync`.
    func ensureActiveOrSync(_ user: AuthenticatedUser, force: Bool) async throws -> Components.Schemas.Subscription {
        let userID = user.user.id
        let app = try Self.app(of: user)
        let plans = try await BillingLedger.plans(of: userID, on: database.sql)
        let before = snapshot(plans, app: app)
        let purchases = try await BillingLedger.purchases(of: userID, on: database.sql)
        guard force || !before.state.grantsAccess else {
            return BillingRepresentation.subscription(snapshot: before, plans: plans, purchases: purchases, syncErrors: [])
        }
        try await rateLimiter.enforce(key: "billing.sync:\(userID)", limit: 10, window: .seconds(3600), logger: logger)
        let report = await sync.syncBoth(userID: userID, app: app)
        let after = try await BillingLedger.plans(of: userID, on: database.sql)
        return BillingRepresentation.subscription(
            snapshot: snapshot(after, app: app), plans: after, purchases: purchases, syncErrors: report.failed
        )
    }

    /// `POST /v1/billing/stripe/checkout`.
    func checkout(_ user: AuthenticatedUser, priceID: String) async throws -> Components.Schemas.StripeCheckout {
        try AccountsController.requirePermanent(user)
        guard settings.app(try Self.app(of: user)).products[priceID] != nil else { throw KindredError.unknownPrice }
        guard let stripe = sync.stripe else { throw KindredError.billingUnavailable }
        let customer = try await BillingLedger.links(of: user.user.id, provider: .stripe, on: database.sql).first
        let session: StripeObject
        do {
            session = try await stripe.createCheckoutSession(
                priceID: priceID, userID: user.user.id, customer: customer,
                successURL: settings.stripeSuccessURL, cancelURL: settings.stripeCancelURL
            )
        } catch is BillingProviderError {
            throw KindredError.billingUnavailable
        }
        guard let id = session.id, let url = session.url else { throw KindredError.billingUnavailable }
        return .init(sessionId: id, url: url)
    }

    /// `POST /v1/billing/stripe/purchase`: Pulse's combined checkout — a one-time item and, unless
    /// the caller already has access, the subscription.
    func purchaseCheckout(
        _ user: AuthenticatedUser, itemPriceID: String, subscriptionPriceID: String?, reference: String?
    ) async throws -> Components.Schemas.StripePurchaseCheckout {
        try AccountsController.requirePermanent(user)
        // The contract's pattern, checked here: the generated server does not enforce `pattern`
        // or `maxLength` (issue 21, item 12), and the reference is sent to Stripe as metadata.
        if let reference {
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-")
            guard (1...100).contains(reference.count), reference.allSatisfy(allowed.contains) else {
                throw KindredError.badRequest("reference must be 1–100 letters, digits or _ . : -")
            }
        }
        let app = try Self.app(of: user)
        let appSettings = settings.app(app)
        guard appSettings.oneTimeProducts[itemPriceID] != nil else { throw KindredError.unknownPrice }
        if let subscriptionPriceID, appSettings.products[subscriptionPriceID] == nil { throw KindredError.unknownPrice }
        guard let stripe = sync.stripe else { throw KindredError.billingUnavailable }
        let plans = try await BillingLedger.plans(of: user.user.id, on: database.sql)
        let withSubscription = subscriptionPriceID != nil && !snapshot(plans, app: app).state.grantsAccess
        let customer = try await BillingLedger.links(of: user.user.id, provider: .stripe, on: database.sql).first
        var metadata = ["itemPriceId": itemPriceID]
        if let reference { metadata["reference"] = reference }
        let session: StripeObject
        do {
            session = try await stripe.createCheckoutSession(
                prices: [itemPriceID] + (withSubscription ? subscriptionPriceID.map { [$0] } ?? [] : []),
                subscription: withSubscription, userID: user.user.id, customer: customer,
                successURL: settings.stripeSuccessURL, cancelURL: settings.stripeCancelURL, metadata: metadata
            )
        } catch is BillingProviderError {
            throw KindredError.billingUnavailable
        }
        guard let id = session.id, let url = session.url else { throw KindredError.billingUnavailable }
        return .init(sessionId: id, url: url, includesSubscription: withSubscription)
    }

    /// `POST /v1/billing/stripe/verify`: Pulse's verify-subscription.
    func verify(_ user: AuthenticatedUser, sessionID: String) async throws -> Components.Schemas.Subscription {
        try AccountsController.requirePermanent(user)
        guard let stripe = sync.stripe else { throw KindredError.billingUnavailable }
        let session: StripeObject?
        do {
            session = try await stripe.checkoutSession(id: sessionID)
        } catch is BillingProviderError {
            throw KindredError.billingUnavailable
        }
        guard let session, session.namedUserID == user.user.id else { throw KindredError.checkoutNotFound }
        guard session.status == "complete", session.paymentStatus != "unpaid" else { throw KindredError.checkoutIncomplete }
        var subscriptions: [StripeObject] = []
        if let expanded = session.subscription?.object {
            subscriptions.append(expanded)
        }
        // The customer is linked even when the subscription was not expanded.
        let app = try Self.app(of: user)
        _ = try await sync.append(
            subscriptions: subscriptions, customers: session.customer.map { [$0.id] } ?? [], userID: user.user.id,
            app: app, source: "verify"
        )
        // A combined checkout's one-time item: recorded once per session, never as a plan entry.
        if let priceID = session.metadata?["itemPriceId"], let item = settings.app(app).oneTimeProducts[priceID], let id = session.id {
            try await BillingLedger.record(
                BillingPurchase(
                    sessionID: id, userID: user.user.id, app: app, priceID: priceID, item: item,
                    reference: session.metadata?["reference"], amountTotal: session.amountTotal, currency: session.currency,
                    sandbox: session.livemode == false, createdAt: clock.now().millisecondsSince1970
                ),
                on: database.sql
            )
        }
        return try await subscription(of: user)
    }

    /// The user's app (every stored account has a known app).
    static func app(of user: AuthenticatedUser) throws -> AppID {
        guard let app = AppID(rawValue: user.user.app) else { throw KindredError.internal }
        return app
    }

    private func snapshot(_ plans: [PlanEntry], app: AppID) -> SubscriptionSnapshot {
        SubscriptionSnapshot.compute(
            plans: plans, now: Int64(clock.now().timeIntervalSince1970.rounded(.down)),
            sandboxGrantsAccess: settings.app(app).sandboxGrantsAccess
        )
    }
}
