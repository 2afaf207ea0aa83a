import KindredServerCore

/// One entry of a user's append-only plan history.
///
/// A lineage is one provider subscription over time (a Stripe subscription id, a RevenueCat
/// original transaction id); each of its changes appends an entry. Timestamps follow Pulse:
/// `expiration` is Unix seconds; `eventTime`, `createdAt` and `updatedAt` are milliseconds.
public struct PlanEntry: Sendable, Hashable, Codable {
    /// The entry's id.
    public var id: String
    /// The owner.
    public var userID: String
    /// The owner's app.
    public var app: AppID
    /// The plan type (`pulsecheck-monthly`, …), from the app's product mapping.
    public var planType: String
    /// The provider's product (a Stripe price id, a store product id).
    public var productID: String
    /// Where it was bought.
    public var platform: BillingPlatform
    /// Who sold it.
    public var provider: BillingProvider
    /// The provider's subscription lineage.
    public var lineage: String
    /// What this entry records.
    public var kind: PlanKind
    /// Until when this entry grants access (Unix seconds).
    public var expiration: Int64
    /// When the provider says the change happened (ms since 1970); orders a lineage's entries.
    public var eventTime: Int64
    /// The provider event (or sync) that produced the entry: its provenance.
    public var eventID: String
    /// Whether the purchase was made in a sandbox (test) environment.
    public var sandbox: Bool
    /// When it was written (ms since 1970).
    public var createdAt: Int64
    /// Equal to `createdAt`: entries are never edited (kept for Pulse's document shape).
    public var updatedAt: Int64

    /// Creates an entry.
    public init(
        id: String, userID: String, app: AppID, planType: String, productID: String, platform: BillingPlatform,
        provider: BillingProvider, lineage: String, kind: PlanKind, expiration: Int64, eventTime: Int64,
        eventID: String, sandbox: Bool, createdAt: Int64
    ) {
        self.id = id
        self.userID = userID
        self.app = app
        self.planType = planType
        self.productID = productID
        self.platform = platform
        self.provider = provider
        self.lineage = lineage
        self.kind = kind
        self.expiration = expiration
        self.eventTime = eventTime
        self.eventID = eventID
        self.sandbox = sandbox
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// The lineage's key across providers.
    public var lineageKey: LineageKey { LineageKey(provider: provider, lineage: lineage) }
}

/// A provider subscription lineage.
public struct LineageKey: Sendable, Hashable, Codable {
    /// The provider.
    public var provider: BillingProvider
    /// Its subscription id or original transaction id.
    public var lineage: String

    /// Creates a key.
    public init(provider: BillingProvider, lineage: String) {
        self.provider = provider
        self.lineage = lineage
    }
}
