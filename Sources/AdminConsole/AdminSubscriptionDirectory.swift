import KindredServerCore
import Foundation

/// What the console's subscription pages read and do, in the console's own terms; the composition
/// root adapts billing's administration API to it (`BillingConsoleDirectory` in `KindredServer`),
/// and tests give a fake.
public protocol AdminSubscriptionDirectory: Sendable {
    /// A page of the subscriptions table.
    func search(_ query: AdminSubscriptionQuery) async throws -> AdminSubscriptionPage
    /// One user's computed state and plan history; nil when the user has no record and no account.
    func detail(userID: String) async throws -> AdminSubscriptionDetail?
    /// Recomputes a user's record; false when there is no such user.
    func refresh(userID: String) async throws -> Bool
    /// Runs the chosen provider syncs for a user now; nil when there is no such user.
    func syncNow(userID: String, providers: AdminSyncProviders) async throws -> AdminSyncOutcome?
    /// Runs a backfill (all users, or one): with `dryRun`, only reports what it would write.
    func backfill(_ kind: AdminBackfillKind, dryRun: Bool, userID: String?) async throws -> AdminBackfillReport
    /// Users flagged for double billing (both providers active at once).
    func doubleBilled(limit: Int) async throws -> [AdminSubscriptionRow]
}

/// A search of the subscriptions table.
public struct AdminSubscriptionQuery: Sendable, Equatable {
    /// The status filter's values.
    public static let statuses = ["unknown", "trialing", "active", "expired"]
    /// The platform filter's values.
    public static let platforms = ["ios", "web", "android"]

    /// Subscription id, user id, plan, username or e-mail.
    public var search: String?
    /// One of `statuses`, or nil for all.
    public var status: String?
    /// One of `platforms`, or nil for all.
    public var platform: String?
    /// Rows per page.
    public var limit: Int
    /// Rows skipped.
    public var offset: Int

    /// Creates a query.
    public init(search: String? = nil, status: String? = nil, platform: String? = nil, limit: Int = 50, offset: Int = 0) {
        self.search = search
        self.status = status
        self.platform = platform
        self.limit = limit
        self.offset = offset
    }
}

/// One row of the subscriptions table (Pulse's columns).
public struct AdminSubscriptionRow: Sendable, Equatable {
    /// The subscription id (the user id, as in Pulse's `subscriptions/{userId}`).
    public var subscriptionID: String
    /// The user id.
    public var userID: String
    /// The denormalised username, if any.
    public var username: String?
    /// The denormalised e-mail, if any.
    public var email: String?
    /// ios, web or android (nil before any plan).
    public var platform: String?
    /// The latest plan type.
    public var planType: String?
    /// unknown, trialing, active or expired.
    public var status: String
    /// The tri-state Active column: Unknown, Active or Expired.
    public var active: String
    /// The latest expiration.
    public var latestExpiration: Date?
    /// Whether the user is flagged for double billing.
    public var doubleBilling: Bool

    /// Creates a row.
    public init(
        subscriptionID: String, userID: String, username: String?, email: String?, platform: String?, planType: String?,
        status: String, active: String, latestExpiration: Date?, doubleBilling: Bool
    ) {
        self.subscriptionID = subscriptionID
        self.userID = userID
        self.username = username
        self.email = email
        self.platform = platform
        self.planType = planType
        self.status = status
        self.active = active
        self.latestExpiration = latestExpiration
        self.doubleBilling = doubleBilling
    }
}

/// A page of the table.
public struct AdminSubscriptionPage: Sendable, Equatable {
    /// The rows.
    public var rows: [AdminSubscriptionRow]
    /// How many rows match the query in all.
    public var total: Int

    /// Creates a page.
    public init(rows: [AdminSubscriptionRow], total: Int) {
        self.rows = rows
        self.total = total
    }
}

/// One entry of a user's plan history, with its provenance.
public struct AdminPlanEntry: Sendable, Equatable {
    /// Plan type, product id, platform, provider, lineage (subscription id / original transaction id) and kind.
    public var planType: String, productID: String, platform: String, provider: String, lineage: String, kind: String
    /// The expiration it records.
    public var expiration: Date
    /// The provider's event time.
    public var eventTime: Date
    /// The provider event id (provenance).
    public var eventID: String
    /// Whether it was a sandbox purchase.
    public var sandbox: Bool

    /// Creates an entry.
    public init(
        planType: String, productID: String, platform: String, provider: String, lineage: String, kind: String,
        expiration: Date, eventTime: Date, eventID: String, sandbox: Bool
    ) {
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
    }
}

/// A user's detail: the state computed now and the plan history.
public struct AdminSubscriptionDetail: Sendable, Equatable {
    /// The stored row (nil when the user has no record yet).
    public var row: AdminSubscriptionRow?
    /// The user id.
    public var userID: String
    /// The state computed now: unknown, trialing, active or expired.
    public var computedStatus: String
    /// The latest expiration computed now.
    public var computedExpiration: Date?
    /// The end of a trial, if trialing.
    public var trialEnd: Date?
    /// The history, oldest provider event first.
    public var plans: [AdminPlanEntry]
    /// Provider ids linked to the user, as `provider: id`.
    public var links: [String]
    /// Provider events recorded against the user, newest first, as one line each.
    public var events: [String]
    /// The last sync's answers of each provider, redacted, as one text block per provider.
    public var rawResponses: [String]

    /// Creates a detail.
    public init(
        row: AdminSubscriptionRow?, userID: String, computedStatus: String, computedExpiration: Date?, trialEnd: Date?,
        plans: [AdminPlanEntry], links: [String], events: [String], rawResponses: [String] = []
    ) {
        self.rawResponses = rawResponses
        self.row = row
        self.userID = userID
        self.computedStatus = computedStatus
        self.computedExpiration = computedExpiration
        self.trialEnd = trialEnd
        self.plans = plans
        self.links = links
        self.events = events
    }
}

/// Which providers "Sync this user now" reads (the seed's Stripe-only trigger is `.stripe`).
public enum AdminSyncProviders: String, Sendable, Equatable, CaseIterable {
    /// Stripe and RevenueCat, in parallel.
    case both
    /// Stripe only.
    case stripe
    /// RevenueCat only.
    case revenuecat
}

/// What "Sync this user now" did.
public struct AdminSyncOutcome: Sendable, Equatable {
    /// Plan entries appended.
    public var appended: Int
    /// Providers that could not be read.
    public var failedProviders: [String]

    /// Creates an outcome.
    public init(appended: Int, failedProviders: [String]) {
        self.appended = appended
        self.failedProviders = failedProviders
    }
}

/// The console's two backfills.
public enum AdminBackfillKind: String, Sendable, CaseIterable {
    /// Copy username and e-mail into the subscriptions table (where the app allows it).
    case userFields = "user-fields"
    /// Append past Stripe invoice periods to the plan history.
    case expirationHistory = "expiration-history"

    /// The button's and the report's title.
    public var title: String {
        switch self {
        case .userFields: "Backfill user fields"
        case .expirationHistory: "Backfill expiration history from Stripe invoices"
        }
    }
}

/// What a backfill found and (unless a dry run) wrote.
public struct AdminBackfillReport: Sendable, Equatable {
    /// Whether nothing was written.
    public var dryRun: Bool
    /// Records or customers examined.
    public var examined: Int
    /// The changes, one line each, as `(user id, what changes)`.
    public var changes: [(userID: String, summary: String)]
    /// Users the backfill could not read from their provider.
    public var failures: [String]

    /// Creates a report.
    public init(dryRun: Bool, examined: Int, changes: [(userID: String, summary: String)], failures: [String]) {
        self.dryRun = dryRun
        self.examined = examined
        self.changes = changes
        self.failures = failures
    }

    /// Equal when every field is.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.dryRun == rhs.dryRun && lhs.examined == rhs.examined && lhs.failures == rhs.failures
            && lhs.changes.map(\.userID) == rhs.changes.map(\.userID) && lhs.changes.map(\.summary) == rhs.changes.map(\.summary)
    }
}
