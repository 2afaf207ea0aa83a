import KindredServerCore

/// Pulse's `subscriptions/{userId}` document, generated from Kindred's plan history (pure).
///
/// Pulse's clients decide access with `max(plans[*].expiration) > now`. Kindred's history is
/// richer: a lineage's latest entry decides its expiration, so a refund or a transfer can lower
/// it, and sandbox purchases may not count. The document therefore lists, lineage by lineage
/// (only lineages that count), the entries up to and including the lineage's current one,
/// leaving out any whose expiration exceeds the current one and any repeating the expiration of
/// the previous entry of the same type (the seed's "identical expiration: do nothing"). The
/// seed's rule applied to the result gives exactly `SubscriptionSnapshot.latestExpiration`.
/// Every timestamp is Unix seconds, as in the seed.
public struct PulseDocument: Sendable, Hashable, Codable {
    /// One entry of `plans`.
    public struct Plan: Sendable, Hashable, Codable {
        /// The plan type (`pulsecheck-monthly`, …).
        public var type: String
        /// Until when it grants access (Unix seconds).
        public var expiration: Int64
        /// When it was written (Unix seconds).
        public var createdAt: Int64
        /// Equal to `createdAt`: entries are never edited.
        public var updatedAt: Int64
        /// Where it was bought.
        public var platform: BillingPlatform
        /// The provider's product.
        public var productId: String
    }

    /// The user (the seed's document id).
    public var userId: String
    /// The denormalised display name.
    public var username: String?
    /// The denormalised e-mail address.
    public var userEmail: String?
    /// The platform of the plan giving the latest expiration.
    public var platform: BillingPlatform?
    /// The computed state.
    public var status: SubscriptionState
    /// The most recent trial's end (Unix seconds).
    public var trialEndDate: Int64?
    /// The plans, oldest first.
    public var plans: [Plan]
    /// When the record was created (Unix seconds).
    public var createdAt: Int64
    /// When it last changed (Unix seconds).
    public var updatedAt: Int64

    /// Builds the document.
    /// - Parameters:
    ///   - userID: the user.
    ///   - record: the stored record (nil for a user billing has never seen).
    ///   - plans: the user's plan history, in any order.
    ///   - sandboxGrantsAccess: whether the app counts sandbox purchases.
    ///   - now: the time the state is judged at (Unix seconds).
    ///   - accountCreatedAt: the account's creation (Unix seconds), used without a record.
    /// - Returns: the document.
    public static func make(
        userID: String, record: SubscriptionRecord?, plans: [PlanEntry], sandboxGrantsAccess: Bool, now: Int64,
        accountCreatedAt: Int64
    ) -> PulseDocument {
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: now, sandboxGrantsAccess: sandboxGrantsAccess)
        let counted = sandboxGrantsAccess ? plans : plans.filter { !$0.sandbox }
        var byLineage: [LineageKey: [PlanEntry]] = [:]
        for entry in counted { byLineage[entry.lineageKey, default: []].append(entry) }
        var listed: [PlanEntry] = []
        for (_, entries) in byLineage {
            let ordered = entries.sorted { SubscriptionSnapshot.isLater($1, than: $0) }
            guard let current = ordered.last else { continue }
            var lastExpirationByType: [String: Int64] = [:]
            for entry in ordered where entry.expiration <= current.expiration {
                if lastExpirationByType[entry.planType] == entry.expiration, entry != current { continue }
                lastExpirationByType[entry.planType] = entry.expiration
                listed.append(entry)
            }
        }
        listed.sort { ($0.createdAt, $0.eventTime, $0.id) < ($1.createdAt, $1.eventTime, $1.id) }
        return PulseDocument(
            userId: userID,
            username: record?.username,
            userEmail: record?.email,
            platform: snapshot.current?.latest.platform ?? record?.platform,
            status: snapshot.state,
            trialEndDate: snapshot.trialEndDate,
            plans: listed.map {
                Plan(
                    type: $0.planType, expiration: $0.expiration, createdAt: $0.createdAt / 1000,
                    updatedAt: $0.updatedAt / 1000, platform: $0.platform, productId: $0.productID
                )
            },
            createdAt: record.map { $0.createdAt / 1000 } ?? accountCreatedAt,
            updatedAt: record.map { $0.updatedAt / 1000 } ?? accountCreatedAt
        )
    }

    /// The seed's access rule over `plans`: unknown without plans, else whether the latest
    /// expiration is after `now`.
    public func seedRuleGrantsAccess(now: Int64) -> Bool? {
        guard let latest = plans.map(\.expiration).max() else { return nil }
        return latest > now
    }
}
