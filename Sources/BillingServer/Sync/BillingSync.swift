import KindredServerCore
import Foundation
import KindredStore
import SQLKit

/// The on-demand syncs (Pulse's `sync-stripe-subscription` and `sync-revenuecat-subscription`)
/// and `ensureActiveOrSync`: read what the providers hold now and append it to the history.
struct BillingSync: Sendable {
    let database: Database
    let applier: BillingApplier
    let settings: BillingSettings
    let clock: any WallClock
    /// Nil when `KINDRED_STRIPE_API_KEY` is not set.
    let stripe: StripeClient?
    /// Nil when no RevenueCat project has a key.
    let revenueCat: RevenueCatClient?

    /// What one sync did.
    struct Report: Sendable, Equatable {
        /// Entries appended.
        var appended: Int
        /// Providers whose sync failed.
        var failed: [BillingProvider]
    }

    /// Runs both syncs in parallel for the user, then recomputes. A failing provider is reported,
    /// not thrown (the other's result still counts).
    func syncBoth(userID: String, app: AppID) async -> Report {
        await sync(userID: userID, app: app, providers: [.stripe, .revenuecat])
    }

    /// Runs the syncs of `providers` in parallel for the user (an operator may choose one: the
    /// seed's "Stripe-only sync trigger"). A failing provider is reported, not thrown.
    func sync(userID: String, app: AppID, providers: Set<BillingProvider>) async -> Report {
        async let stripeCount = providers.contains(.stripe)
            ? logged(.stripe, userID: userID) { try await syncStripe(userID: userID, app: app) } : .success(0)
        async let revenueCatCount = providers.contains(.revenuecat)
            ? logged(.revenuecat, userID: userID) { try await syncRevenueCat(userID: userID, app: app) } : .success(0)
        let results = await [stripeCount, revenueCatCount]
        var report = Report(appended: 0, failed: [])
        for result in results {
            switch result {
            case .success(let count): report.appended += count
            case .failure(let error): report.failed.append(error.provider)
            }
        }
        return report
    }

    /// Runs one provider's sync with a `ProviderResponseLog` bound, then keeps what the provider
    /// answered (redacted) as the user's last exchanges with it; a sync that sent nothing keeps
    /// the previous ones. Keeping them never fails the sync.
    private func logged(
        _ provider: BillingProvider, userID: String, _ body: () async throws -> Int
    ) async -> Result<Int, BillingProviderError> {
        let log = ProviderResponseLog()
        let result = await ProviderResponseLog.$current.withValue(log) { await attempt(provider, body) }
        let exchanges = log.recorded
        guard !exchanges.isEmpty else { return result }
        let outcome: String
        switch result {
        case .success: outcome = "ok"
        case .failure(let error): outcome = "\(error)"
        }
        try? await BillingLedger.storeResponses(
            userID: userID, provider: provider, outcome: outcome, exchanges: exchanges, at: clock.now().millisecondsSince1970,
            on: database.sql
        )
        return result
    }

    private func attempt(_ provider: BillingProvider, _ body: () async throws -> Int) async -> Result<Int, BillingProviderError> {
        do {
            return .success(try await body())
        } catch let error as BillingProviderError {
            return .failure(error)
        } catch {
            return .failure(.unreachable(provider, "\(type(of: error))"))
        }
    }

    /// Appends the current period of every subscription of the user's Stripe customers.
    /// - Returns: entries appended (0 when the user has no Stripe customer).
    func syncStripe(userID: String, app: AppID) async throws -> Int {
        let customers = try await BillingLedger.links(of: userID, provider: .stripe, on: database.sql)
        guard !customers.isEmpty else { return 0 }
        guard let stripe else { throw BillingProviderError.notConfigured(.stripe) }
        var subscriptions: [StripeObject] = []
        for customer in customers { subscriptions += try await stripe.subscriptions(customer: customer) }
        return try await append(subscriptions: subscriptions, customers: [], userID: userID, app: app, source: "sync")
    }

    /// Appends what Stripe subscription objects grant (used by the sync and by checkout verification).
    func append(
        subscriptions: [StripeObject], customers: [String], userID: String, app: AppID, source: String
    ) async throws -> Int {
        let now = clock.now()
        let nowMs = now.millisecondsSince1970
        let applier = applier
        return try await applier.realtime.transaction { transaction in
            try await BillingLedger.lock([userID], on: transaction.sql)
            var effect = BillingEffect(userID: userID, outcome: source)
            effect.touched[userID] = app
            for customer in customers { effect.links.append((.stripe, customer, userID)) }
            for subscription in subscriptions {
                if let customer = subscription.customer?.id { effect.links.append((.stripe, customer, userID)) }
                guard let id = subscription.id, let end = subscription.subscriptionPeriodEnd else { continue }
                if let entry = try await applier.stripe.entry(
                    subscription: subscription, user: userID, app: app, eventID: "\(source):stripe:\(id):\(end)", eventTime: nowMs,
                    sandbox: subscription.livemode == false, now: nowMs, on: transaction.sql
                ) {
                    effect.appends.append(entry)
                }
            }
            let results = try await applier.commit(effect, now: now, on: transaction)
            return results[userID]?.appended ?? 0
        }
    }

    /// Reads the user's RevenueCat subscriptions in each project of the app (by user id, then
    /// on 404 by each known alias in turn) and appends their current expirations.
    /// - Returns: entries appended.
    func syncRevenueCat(userID: String, app: AppID) async throws -> Int {
        let projects = settings.revenueCatProjects(of: app)
        guard !projects.isEmpty else { return 0 }
        guard let revenueCat else { throw BillingProviderError.notConfigured(.revenuecat) }
        let aliases = try await BillingLedger.links(of: userID, provider: .revenuecat, on: database.sql)
        // Each subscription with the entitlement names of the project it came from.
        var subscriptions: [(subscription: RevenueCatClient.Subscription, wanted: Set<String>)] = []
        for (project, key) in projects {
            let wanted = Set(settings.revenueCatEntitlements(of: project))
            for candidate in [userID] + aliases {
                if try await revenueCat.customerExists(project: project.id, customer: candidate, apiKey: key) {
                    subscriptions += try await revenueCat.subscriptions(project: project.id, customer: candidate, apiKey: key)
                        .map { ($0, wanted) }
                    break
                }
            }
        }
        let found = subscriptions
        let now = clock.now()
        let nowMs = now.millisecondsSince1970
        let nowSeconds = nowMs / 1000
        let appSettings = settings.app(app)
        let applier = applier
        return try await applier.realtime.transaction { transaction in
            try await BillingLedger.lock([userID], on: transaction.sql)
            var effect = BillingEffect(userID: userID, outcome: "sync")
            effect.touched[userID] = app
            for (subscription, wanted) in found {
                let keys = Set(subscription.entitlements?.items.compactMap(\.lookupKey) ?? [])
                if !wanted.isEmpty, !keys.isEmpty, keys.isDisjoint(with: wanted) { continue }
                guard let endMs = subscription.endsAt ?? subscription.currentPeriodEndsAt else { continue }
                let lineage = subscription.storeSubscriptionIdentifier ?? subscription.id
                let key = LineageKey(provider: .revenuecat, lineage: lineage)
                let latest = try await BillingLedger.latest(userID: userID, lineage: key, on: transaction.sql)
                var expiration = endMs / 1000
                let kind: PlanKind
                if subscription.givesAccess == false {
                    guard let latest, latest.expiration > nowSeconds else { continue }
                    kind = .revocation
                    expiration = min(expiration, nowSeconds)
                } else {
                    kind = subscription.status == "trialing" ? .trial : (latest == nil ? .purchase : .renewal)
                }
                let productID = subscription.productID ?? "unknown"
                effect.appends.append(
                    PlanEntry(
                        id: UUID().uuidString.lowercased(), userID: userID, app: app,
                        planType: appSettings.planType(for: productID), productID: productID, platform: subscription.platform,
                        provider: .revenuecat, lineage: lineage, kind: kind, expiration: expiration, eventTime: nowMs,
                        eventID: "sync:revenuecat:\(subscription.id):\(expiration)",
                        sandbox: subscription.environment?.lowercased() == "sandbox", createdAt: nowMs
                    )
                )
            }
            let results = try await applier.commit(effect, now: now, on: transaction)
            return results[userID]?.appended ?? 0
        }
    }
}
