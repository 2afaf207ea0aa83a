import KindredServerCore

/// A user's subscription state computed from the plan history (pure; no I/O).
///
/// Each lineage's expiration is the one of its latest entry by provider event time (so a
/// refund, an expiration or a transfer can end access early, and an older event delivered late
/// changes nothing); access is the latest expiration over all lineages — Pulse's
/// max-of-expirations rule wherever nothing was revoked.
public struct SubscriptionSnapshot: Sendable, Hashable {
    /// One lineage's current standing.
    public struct Lineage: Sendable, Hashable {
        /// The lineage.
        public var key: LineageKey
        /// Its latest entry by provider event time: the one that decides its expiration.
        public var latest: PlanEntry
        /// Whether it grants access at the computation's `now`.
        public var isActive: Bool
    }

    /// The state.
    public var state: SubscriptionState
    /// Pulse's `status` field: the state's name.
    public var status: String { state.rawValue }
    /// The latest expiration over all lineages (Unix seconds), nil without entries.
    public var latestExpiration: Int64?
    /// When the most recent trial ends or ended (Unix seconds), nil without a trial.
    public var trialEndDate: Int64?
    /// The lineage that gives the latest expiration.
    public var current: Lineage?
    /// Every lineage, most recent expiration first.
    public var lineages: [Lineage]
    /// True when paid plans of both providers are active at once (a double charge): access
    /// follows the usual rule and an operator should look.
    public var doubleBilling: Bool

    /// The empty history's snapshot.
    public static let unknown = SubscriptionSnapshot(
        state: .unknown, latestExpiration: nil, trialEndDate: nil, current: nil, lineages: [], doubleBilling: false
    )

    /// Computes the snapshot.
    /// - Parameters:
    ///   - plans: the user's entries, in any order.
    ///   - now: the time to judge expirations at (Unix seconds).
    ///   - sandboxGrantsAccess: whether sandbox purchases count (otherwise they are ignored).
    /// - Returns: the state, the latest expiration and the double-billing flag.
    public static func compute(plans: [PlanEntry], now: Int64, sandboxGrantsAccess: Bool) -> SubscriptionSnapshot {
        guard !plans.isEmpty else { return .unknown }
        let counted = sandboxGrantsAccess ? plans : plans.filter { !$0.sandbox }
        var latestByLineage: [LineageKey: PlanEntry] = [:]
        for entry in counted {
            if let seen = latestByLineage[entry.lineageKey], !isLater(entry, than: seen) { continue }
            latestByLineage[entry.lineageKey] = entry
        }
        let lineages = latestByLineage.values
            .map { Lineage(key: $0.lineageKey, latest: $0, isActive: $0.expiration > now) }
            .sorted { ($0.latest.expiration, $0.latest.eventTime, $0.key.lineage) > ($1.latest.expiration, $1.latest.eventTime, $1.key.lineage) }
        let trialEnd = counted.filter { $0.kind == .trial }.max { isLater($1, than: $0) }?.expiration
        guard let current = lineages.first else {
            return SubscriptionSnapshot(
                state: .expired, latestExpiration: nil, trialEndDate: trialEnd, current: nil, lineages: [], doubleBilling: false
            )
        }
        let active = lineages.filter(\.isActive)
        let state: SubscriptionState
        if active.isEmpty {
            state = .expired
        } else if active.contains(where: { $0.latest.kind != .trial }) {
            state = .active
        } else {
            state = .trialing
        }
        let paidProviders = Set(active.filter { $0.latest.kind != .trial }.map(\.key.provider))
        return SubscriptionSnapshot(
            state: state, latestExpiration: current.latest.expiration, trialEndDate: trialEnd, current: current,
            lineages: lineages, doubleBilling: paidProviders.count > 1
        )
    }

    /// Whether `entry` comes after `other` in its lineage: later provider event time, then
    /// later write, then an entry that ends access (a revocation or transfer out) last.
    static func isLater(_ entry: PlanEntry, than other: PlanEntry) -> Bool {
        if entry.eventTime != other.eventTime { return entry.eventTime > other.eventTime }
        if entry.createdAt != other.createdAt { return entry.createdAt > other.createdAt }
        let ending: Set<PlanKind> = [.revocation, .transferOut, .expiration]
        if ending.contains(entry.kind) != ending.contains(other.kind) { return ending.contains(entry.kind) }
        return entry.id > other.id
    }
}
