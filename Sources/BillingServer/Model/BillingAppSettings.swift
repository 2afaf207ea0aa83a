import KindredServerCore

/// One app's billing configuration: plain data, no per-app branches in the code.
public struct BillingAppSettings: Sendable, Equatable {
    /// Product id (store product, Stripe price, RevenueCat product) → plan type.
    public var products: [String: String]
    /// One-time items sold on the web (Stripe price → item name, e.g. Pulse's rounds): bought in
    /// a Checkout with an optional subscription, recorded as purchases, never as plan entries.
    public var oneTimeProducts: [String: String]
    /// The Kindred entitlement an active plan grants (`premium`, `healing_pass`, `access`).
    public var entitlement: String
    /// The RevenueCat entitlement identifiers that count for this app (iOS Pulse uses `plus`);
    /// empty means every entitlement counts.
    public var revenueCatEntitlements: [String]
    /// Whether sandbox (test) purchases grant access.
    public var sandboxGrantsAccess: Bool
    /// Whether username and e-mail may be copied into the subscriptions table for search
    /// (never for Ex-Eraser, which stores no PII).
    public var denormalizeUserFields: Bool

    /// Creates an app's billing configuration.
    public init(
        products: [String: String] = [:], oneTimeProducts: [String: String] = [:], entitlement: String,
        revenueCatEntitlements: [String] = [], sandboxGrantsAccess: Bool = false, denormalizeUserFields: Bool = true
    ) {
        self.products = products
        self.oneTimeProducts = oneTimeProducts
        self.entitlement = entitlement
        self.revenueCatEntitlements = revenueCatEntitlements
        self.sandboxGrantsAccess = sandboxGrantsAccess
        self.denormalizeUserFields = denormalizeUserFields
    }

    /// The plan type of `productID`: the mapped type, else the product id itself.
    public func planType(for productID: String) -> String { products[productID] ?? productID }

    /// The defaults: Pulse's `pc_1w | pc_1m | pc_1y → pulsecheck-weekly | monthly | annual` with
    /// the `plus` entitlement and the one-time `pc_round → pulse-round`; Closer `premium`; Ex-Eraser `healing_pass` without denormalised
    /// user fields; SoulMate and StreakSync `premium`.
    public static func developmentDefault(for app: AppID) -> BillingAppSettings {
        switch app {
        case .pulse:
            BillingAppSettings(
                products: ["pc_1w": "pulsecheck-weekly", "pc_1m": "pulsecheck-monthly", "pc_1y": "pulsecheck-annual"],
                oneTimeProducts: ["pc_round": "pulse-round"], entitlement: "access", revenueCatEntitlements: ["plus"]
            )
        case .closer:
            BillingAppSettings(
                products: ["closer_premium_monthly": "closer-premium-monthly", "closer_premium_annual": "closer-premium-annual"],
                entitlement: "premium", revenueCatEntitlements: ["premium"]
            )
        case .exeraser:
            BillingAppSettings(
                products: ["healing_pass": "healing-pass"], entitlement: "healing_pass",
                revenueCatEntitlements: ["healing_pass"], denormalizeUserFields: false
            )
        case .soulmate, .streaksync:
            BillingAppSettings(entitlement: "premium")
        }
    }
}
