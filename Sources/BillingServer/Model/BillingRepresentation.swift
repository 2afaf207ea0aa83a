import KindredServerCore
import KindredAPI

/// The API forms of billing's values.
enum BillingRepresentation {
    /// The app's entitlements from a snapshot: the app's entitlement, active while access lasts.
    static func entitlements(
        app: AppID, snapshot: SubscriptionSnapshot, settings: BillingAppSettings
    ) -> Components.Schemas.Entitlements {
        let active = snapshot.state.grantsAccess
        return Components.Schemas.Entitlements(
            app: Components.Schemas.AppID(rawValue: app.rawValue) ?? .closer,
            state: .init(rawValue: snapshot.state.rawValue) ?? .unknown,
            tier: active ? settings.entitlement : "free",
            entitlements: [
                .init(name: settings.entitlement, active: active, expiresAt: snapshot.latestExpiration)
            ]
        )
    }

    /// The subscription answer: state, latest expiration and the history with provenance.
    static func subscription(
        snapshot: SubscriptionSnapshot, plans: [PlanEntry], purchases: [BillingPurchase] = [], syncErrors: [BillingProvider]? = nil
    ) -> Components.Schemas.Subscription {
        Components.Schemas.Subscription(
            state: .init(rawValue: snapshot.state.rawValue) ?? .unknown,
            status: snapshot.status,
            hasAccess: snapshot.state.grantsAccess,
            latestExpiration: snapshot.latestExpiration,
            trialEndDate: snapshot.trialEndDate,
            platform: snapshot.current.flatMap { .init(rawValue: $0.latest.platform.rawValue) },
            planType: snapshot.current?.latest.planType,
            doubleBilling: snapshot.doubleBilling,
            purchases: purchases.isEmpty ? nil : purchases.map {
                .init(
                    id: $0.sessionID, priceId: $0.priceID, item: $0.item, reference: $0.reference, amountTotal: $0.amountTotal,
                    currency: $0.currency, sandbox: $0.sandbox, createdAt: $0.createdAt
                )
            },
            syncErrors: syncErrors.map { $0.compactMap { .init(rawValue: $0.rawValue) } },
            plans: plans.map(plan)
        )
    }

    /// One plan entry.
    static func plan(_ entry: PlanEntry) -> Components.Schemas.PlanEntry {
        Components.Schemas.PlanEntry(
            id: entry.id, planType: entry.planType, productId: entry.productID,
            platform: .init(rawValue: entry.platform.rawValue) ?? .ios,
            provider: .init(rawValue: entry.provider.rawValue) ?? .stripe,
            lineage: entry.lineage, kind: .init(rawValue: entry.kind.rawValue) ?? .purchase,
            expiration: entry.expiration, eventTime: entry.eventTime, eventId: entry.eventID, sandbox: entry.sandbox,
            createdAt: entry.createdAt
        )
    }

    /// Pulse's document.
    static func document(_ document: PulseDocument) -> Components.Schemas.PulseSubscriptionDocument {
        Components.Schemas.PulseSubscriptionDocument(
            userId: document.userId, username: document.username, userEmail: document.userEmail,
            platform: document.platform.flatMap { .init(rawValue: $0.rawValue) },
            status: .init(rawValue: document.status.rawValue), trialEndDate: document.trialEndDate,
            plans: document.plans.map {
                .init(
                    _type: $0.type, expiration: $0.expiration, createdAt: $0.createdAt, updatedAt: $0.updatedAt,
                    platform: .init(rawValue: $0.platform.rawValue) ?? .ios, productId: $0.productId
                )
            },
            createdAt: document.createdAt, updatedAt: document.updatedAt
        )
    }
}
