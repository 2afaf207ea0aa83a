import KindredAPI

/// Billing's client routes of the core contract (`/v1/me/subscription*`, `/v1/me/entitlements`,
/// `/v1/billing/stripe/*`): the core serves the operations and asks the domain that provides this
/// service (billing, through `DomainServices`); without one they answer 503 `billing_unavailable`.
package protocol SubscriptionService: Sendable {
    /// The caller's subscription state and plan history.
    func subscription(of user: AuthenticatedUser) async throws -> Components.Schemas.Subscription
    /// The caller's record in Pulse's `subscriptions/{userId}` document shape.
    func document(of user: AuthenticatedUser) async throws -> Components.Schemas.PulseSubscriptionDocument
    /// Re-syncs from the providers when access looks lost (or always, with `force`).
    func ensureActiveOrSync(_ user: AuthenticatedUser, force: Bool) async throws -> Components.Schemas.Subscription
    /// The app's entitlements of the caller.
    func entitlements(of user: AuthenticatedUser) async throws -> Components.Schemas.Entitlements
    /// Starts a Stripe Checkout for `priceID`.
    func checkout(_ user: AuthenticatedUser, priceID: String) async throws -> Components.Schemas.StripeCheckout
    /// Starts a Stripe Checkout for a one-time item with an optional subscription.
    func purchaseCheckout(
        _ user: AuthenticatedUser, itemPriceID: String, subscriptionPriceID: String?, reference: String?
    ) async throws -> Components.Schemas.StripePurchaseCheckout
    /// Verifies a completed Stripe Checkout.
    func verify(_ user: AuthenticatedUser, sessionID: String) async throws -> Components.Schemas.Subscription
}

/// The subscription routes of a server without billing: every call is 503 `billing_unavailable`.
struct UnavailableSubscriptions: SubscriptionService {
    func subscription(of user: AuthenticatedUser) async throws -> Components.Schemas.Subscription { throw unavailable }
    func document(of user: AuthenticatedUser) async throws -> Components.Schemas.PulseSubscriptionDocument { throw unavailable }
    func ensureActiveOrSync(_ user: AuthenticatedUser, force: Bool) async throws -> Components.Schemas.Subscription { throw unavailable }
    func entitlements(of user: AuthenticatedUser) async throws -> Components.Schemas.Entitlements { throw unavailable }
    func checkout(_ user: AuthenticatedUser, priceID: String) async throws -> Components.Schemas.StripeCheckout { throw unavailable }
    func purchaseCheckout(
        _ user: AuthenticatedUser, itemPriceID: String, subscriptionPriceID: String?, reference: String?
    ) async throws -> Components.Schemas.StripePurchaseCheckout { throw unavailable }
    func verify(_ user: AuthenticatedUser, sessionID: String) async throws -> Components.Schemas.Subscription { throw unavailable }

    private var unavailable: KindredError {
        KindredError.refused(status: 503, code: "billing_unavailable", message: "billing is not part of this server")
    }
}
