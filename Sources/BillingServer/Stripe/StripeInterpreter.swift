import KindredServerCore
import Foundation
import SQLKit

/// Turns Stripe events and objects into `BillingEffect`s. A Stripe object is tied to a user by
/// `metadata.userId` / `client_reference_id`, and the customer-to-user link is remembered for
/// later events that carry only the customer.
struct StripeInterpreter: Sendable {
    let settings: BillingSettings
    /// Makes entry ids.
    let newID: @Sendable () -> String

    /// Subscription statuses that grant access.
    static let grantingStatuses: Set<String> = ["active", "trialing", "past_due"]

    /// The effect of `event`, reading users and links on `sql`.
    /// - Throws: `BillingApplyError.unmatchedUser` when no user can be found (yet).
    func effect(of event: StripeEvent, now: Int64, on sql: any SQLDatabase) async throws -> BillingEffect {
        let object = event.data.object
        let eventTime = event.created * 1000
        let sandbox = event.livemode == false
        switch event.type {
        case "checkout.session.completed":
            let (user, app) = try await resolve(object, on: sql)
            var effect = BillingEffect(userID: user, outcome: "applied: customer linked")
            if let customer = object.customer?.id { effect.links.append((.stripe, customer, user)) }
            effect.touched[user] = app
            return effect
        case "customer.subscription.created", "customer.subscription.updated":
            let (user, app) = try await resolve(object, on: sql)
            var effect = BillingEffect(userID: user, outcome: "applied")
            if let customer = object.customer?.id { effect.links.append((.stripe, customer, user)) }
            effect.touched[user] = app
            guard let entry = try await entry(
                subscription: object, user: user, app: app, eventID: event.id, eventTime: eventTime, sandbox: sandbox,
                created: event.type == "customer.subscription.created", now: now, on: sql
            ) else { return .ignored("subscription status \(object.status ?? "none") grants nothing", userID: user) }
            effect.appends.append(entry)
            return effect
        case "customer.subscription.deleted":
            let (user, app) = try await resolve(object, on: sql)
            guard let subscriptionID = object.id, let periodEnd = object.subscriptionPeriodEnd,
                let ended = object.endedAt ?? object.canceledAt, ended < periodEnd
            else { return .ignored("deleted at the end of its period", userID: user) }
            // Deleted with immediate effect: access ends when it ended (kept even when it arrives
            // before the subscription's other events, which it then outranks).
            let latest = try await BillingLedger.latest(
                userID: user, lineage: LineageKey(provider: .stripe, lineage: subscriptionID), on: sql
            )
            let productID = latest?.productID ?? object.firstPriceID ?? "unknown"
            var effect = BillingEffect(userID: user, outcome: "applied: revoked")
            effect.touched[user] = app
            effect.appends.append(
                PlanEntry(
                    id: newID(), userID: user, app: app, planType: settings.app(app).planType(for: productID),
                    productID: productID, platform: .web, provider: .stripe, lineage: subscriptionID, kind: .revocation,
                    expiration: min(ended, latest?.expiration ?? ended), eventTime: eventTime, eventID: event.id,
                    sandbox: sandbox, createdAt: now
                )
            )
            return effect
        case "invoice.paid":
            guard let subscriptionID = object.invoiceSubscriptionID else { return .ignored("invoice without subscription") }
            let (user, app) = try await resolve(object, on: sql)
            var effect = BillingEffect(userID: user, outcome: "applied")
            if let customer = object.customer?.id { effect.links.append((.stripe, customer, user)) }
            effect.touched[user] = app
            let subscriptionLines = object.lines?.data ?? []
            guard let periodEnd = subscriptionLines.compactMap(\.period?.end).max() else {
                return .ignored("invoice without line periods", userID: user)
            }
            let productID = object.firstPriceID ?? "unknown"
            effect.appends.append(
                PlanEntry(
                    id: newID(), userID: user, app: app, planType: settings.app(app).planType(for: productID),
                    productID: productID, platform: .web, provider: .stripe, lineage: subscriptionID, kind: .renewal,
                    expiration: periodEnd, eventTime: eventTime, eventID: event.id, sandbox: sandbox, createdAt: now
                )
            )
            return effect
        default:
            return .ignored("\(event.type.prefix(64)) is not handled")
        }
    }

    /// The entry a subscription object makes (nil when its status grants nothing or it has no period end).
    /// - Parameter created: whether the object was just created (a purchase); otherwise the
    ///   kind is `purchase` only when the lineage has no entries yet.
    func entry(
        subscription object: StripeObject, user: String, app: AppID, eventID: String, eventTime: Int64, sandbox: Bool,
        created: Bool = false, now: Int64, on sql: any SQLDatabase
    ) async throws -> PlanEntry? {
        guard let subscriptionID = object.id, let status = object.status, Self.grantingStatuses.contains(status),
            let periodEnd = object.subscriptionPeriodEnd
        else { return nil }
        let lineage = LineageKey(provider: .stripe, lineage: subscriptionID)
        var isFirst = created
        if !isFirst { isFirst = try await BillingLedger.latest(userID: user, lineage: lineage, on: sql) == nil }
        let productID = object.firstPriceID ?? "unknown"
        let kind: PlanKind = status == "trialing" ? .trial : (isFirst ? .purchase : .renewal)
        let expiration = status == "trialing" ? (object.trialEnd ?? periodEnd) : periodEnd
        return PlanEntry(
            id: newID(), userID: user, app: app, planType: settings.app(app).planType(for: productID), productID: productID,
            platform: .web, provider: .stripe, lineage: subscriptionID, kind: kind, expiration: expiration,
            eventTime: eventTime, eventID: eventID, sandbox: sandbox, createdAt: now
        )
    }

    /// The user of a Stripe object: its named user when that user exists, else the customer's link.
    /// - Throws: `BillingApplyError.unmatchedUser`.
    func resolve(_ object: StripeObject, on sql: any SQLDatabase) async throws -> (String, AppID) {
        if let named = object.namedUserID, let app = try await BillingLedger.app(ofUser: named, locking: true, on: sql) {
            return (named, app)
        }
        if let customer = object.customer?.id,
            let user = try await BillingLedger.linkedUser(provider: .stripe, externalID: customer, on: sql),
            let app = try await BillingLedger.app(ofUser: user, locking: true, on: sql)
        {
            return (user, app)
        }
        throw BillingApplyError.unmatchedUser(
            provider: .stripe, ids: [object.namedUserID, object.customer?.id].compactMap { $0 }
        )
    }
}
