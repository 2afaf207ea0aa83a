import KindredServerCore
import Foundation
import SQLKit

/// Turns a RevenueCat event into a `BillingEffect`: access ends at `EXPIRATION`, not at an
/// ordinary `CANCELLATION`; a refund (`CANCELLATION` with `cancel_reason` `CUSTOMER_SUPPORT`)
/// revokes at once; `TRANSFER` moves access from `transferred_from` to `transferred_to`;
/// users are found by `app_user_id`, `original_app_user_id` and `aliases`.
struct RevenueCatInterpreter: Sendable {
    let settings: BillingSettings
    /// Makes entry ids.
    let newID: @Sendable () -> String

    /// Event types that extend or start a lineage.
    static let granting: Set<String> = [
        "INITIAL_PURCHASE", "RENEWAL", "PRODUCT_CHANGE", "UNCANCELLATION", "NON_RENEWING_PURCHASE",
        "SUBSCRIPTION_EXTENDED", "TEMPORARY_ENTITLEMENT_GRANT",
    ]

    /// A non-renewing purchase without an expiration (lifetime): 9999-12-31T23:59:59Z.
    static let lifetime: Int64 = 253_402_300_799

    /// The effect of `event`, reading users and lineages on `sql`.
    /// - Throws: `BillingApplyError.unmatchedUser` when the event names users none of which exists.
    func effect(of event: RevenueCatEvent, now: Int64, on sql: any SQLDatabase) async throws -> BillingEffect {
        switch event.type {
        case "TEST":
            return .ignored("test event")
        case "TRANSFER":
            return try await transfer(event, now: now, on: sql)
        case "SUBSCRIBER_ALIAS":
            let (user, app) = try await resolve(event.candidateUserIDs, on: sql)
            var effect = BillingEffect(userID: user, outcome: "applied: aliases linked")
            effect.links = links(event.candidateUserIDs, to: user)
            effect.touched[user] = app
            return effect
        default:
            break
        }
        let granting = Self.granting.contains(event.type)
        let refund = event.type == "CANCELLATION" && event.cancelReason?.uppercased() == "CUSTOMER_SUPPORT"
        let expiring = event.type == "EXPIRATION"
        guard granting || refund || expiring else {
            // CANCELLATION (not a refund), BILLING_ISSUE and unknown types: stored, access unchanged.
            let user = try? await resolve(event.candidateUserIDs, on: sql)
            return .ignored("\(event.type.prefix(64)) does not change access", userID: user?.0)
        }
        let (user, app) = try await resolve(event.candidateUserIDs, on: sql)
        var effect = BillingEffect(userID: user, outcome: "applied")
        effect.links = links(event.candidateUserIDs, to: user)
        effect.touched[user] = app
        effect.locked.insert(user)  // by resolve
        let eventSeconds = event.eventTimestampMs / 1000
        let productID = (event.type == "PRODUCT_CHANGE" ? event.newProductID : nil) ?? event.productID ?? "unknown"
        let lineage = event.originalTransactionID ?? event.transactionID ?? "rc:\(productID)"
        let kind: PlanKind
        var expiration: Int64
        if refund {
            kind = .revocation
            expiration = min(eventSeconds, event.expirationAtMs.map { $0 / 1000 } ?? eventSeconds)
        } else if expiring {
            kind = .expiration
            expiration = min(eventSeconds, event.expirationAtMs.map { $0 / 1000 } ?? eventSeconds)
        } else {
            guard let expiresMs = event.expirationAtMs ?? (event.type == "NON_RENEWING_PURCHASE" ? Self.lifetime * 1000 : nil) else {
                return .ignored("\(event.type) without expiration_at_ms", userID: user)
            }
            expiration = expiresMs / 1000
            if event.periodType?.uppercased() == "TRIAL" {
                kind = .trial
            } else if event.type == "INITIAL_PURCHASE" || event.type == "NON_RENEWING_PURCHASE" {
                kind = .purchase
            } else {
                kind = .renewal
            }
        }
        // An ending never extends a lineage beyond what it had; one delivered before the
        // lineage's purchase is kept, and outranks the older purchase when it arrives.
        if !granting,
            let latest = try await BillingLedger.latest(userID: user, lineage: LineageKey(provider: .revenuecat, lineage: lineage), on: sql)
        {
            expiration = min(expiration, latest.expiration)
        }
        let entry = PlanEntry(
            id: newID(), userID: user, app: app, planType: settings.app(app).planType(for: productID),
            productID: productID, platform: event.platform, provider: .revenuecat, lineage: lineage, kind: kind,
            expiration: expiration, eventTime: event.eventTimestampMs, eventID: event.id, sandbox: event.isSandbox,
            createdAt: now
        )
        effect.appends.append(entry)
        if granting {
            // A TRANSFER applied before this (earlier) purchase or renewal moves it now.
            try await followTransfers(of: entry, fromIDs: [user] + event.candidateUserIDs, now: now, into: &effect, on: sql)
        }
        return effect
    }

    /// The first of `ids` that is a Kindred user, directly or through a remembered alias.
    /// - Throws: `BillingApplyError.unmatchedUser`.
    func resolve(_ ids: [String], on sql: any SQLDatabase) async throws -> (String, AppID) {
        for id in ids {
            if let app = try await BillingLedger.app(ofUser: id, locking: true, on: sql) {
                return (id, app)
            }
        }
        for id in ids {
            if let user = try await BillingLedger.linkedUser(provider: .revenuecat, externalID: id, on: sql),
                let app = try await BillingLedger.app(ofUser: user, locking: true, on: sql)
            {
                return (user, app)
            }
        }
        throw BillingApplyError.unmatchedUser(provider: .revenuecat, ids: ids)
    }

    /// Links every id but the user's own (bounded) as a RevenueCat alias of `user`.
    func links(_ ids: [String], to user: String) -> [(provider: BillingProvider, externalID: String, userID: String)] {
        ids.filter { $0 != user && $0.utf8.count <= 256 }.prefix(20).map { (BillingProvider.revenuecat, $0, user) }
    }
}
