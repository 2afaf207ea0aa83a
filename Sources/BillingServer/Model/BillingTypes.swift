import KindredServerCore

/// Who sold a plan.
public enum BillingProvider: String, Sendable, Hashable, Codable, CaseIterable {
    /// Stripe (Pulse's web checkout).
    case stripe
    /// RevenueCat (App Store and Play Store purchases through the apps' SDKs).
    case revenuecat
}

/// Where a plan was bought.
public enum BillingPlatform: String, Sendable, Hashable, Codable, CaseIterable {
    /// The App Store (iOS, iPadOS, macOS).
    case ios
    /// The web (Stripe checkout).
    case web
    /// Google Play (or another Android store).
    case android
}

/// What a plan entry records. Entries are never edited; every change is a new entry.
public enum PlanKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A first purchase of a lineage.
    case purchase
    /// A new period (or extension, uncancellation, product change) of a lineage.
    case renewal
    /// A free trial: access until `expiration`, shown as `trialing`.
    case trial
    /// Access ended early (refund, immediate cancellation): `expiration` is when it ended.
    case revocation
    /// The provider reported the lineage expired (`expiration` is when).
    case expiration
    /// The lineage moved here from another user.
    case transferIn = "transfer_in"
    /// The lineage moved to another user: access here ends at `expiration`.
    case transferOut = "transfer_out"
}

/// A user's computed subscription state.
public enum SubscriptionState: String, Sendable, Hashable, Codable, CaseIterable {
    /// No plan entries at all.
    case unknown
    /// Access from a free trial.
    case trialing
    /// Access from a paid plan.
    case active
    /// Entries exist but every lineage has ended.
    case expired

    /// Whether the state grants access.
    public var grantsAccess: Bool { self == .active || self == .trialing }
}
