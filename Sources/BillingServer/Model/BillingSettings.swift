import KindredServerCore
import Foundation

/// The billing service's configuration: provider secrets (from the environment), base URLs
/// (overridable for tests), RevenueCat projects, each app's products and entitlements, and
/// the webhook inbox's retry policy.
public struct BillingSettings: Sendable {
    /// A RevenueCat project feeding this server.
    public struct RevenueCatProject: Sendable, Equatable {
        /// The project id (`GET /v2/projects/{id}/customers/…`).
        public var id: String
        /// The app its customers belong to.
        public var app: AppID
        /// Its secret API key (v2); the global `KINDRED_REVENUECAT_API_KEY` when nil.
        public var apiKey: String?
        /// The entitlement lookup keys that grant the app's entitlement in this project (iOS's
        /// project uses `plus`, another may say `premium`); the app's
        /// `revenueCatEntitlements` when nil.
        public var entitlements: [String]?

        /// Creates a project.
        public init(id: String, app: AppID, apiKey: String? = nil, entitlements: [String]? = nil) {
            self.id = id
            self.app = app
            self.apiKey = apiKey
            self.entitlements = entitlements
        }
    }

    /// `KINDRED_STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret (`whsec_…`).
    public var stripeWebhookSecret: String?
    /// `KINDRED_STRIPE_API_KEY`: the secret API key (`sk_…`).
    public var stripeAPIKey: String?
    /// Stripe's API (https://api.stripe.com).
    public var stripeBaseURL = URL(string: "https://api.stripe.com")!
    /// Where Checkout sends the buyer after paying (`{CHECKOUT_SESSION_ID}` is filled in by Stripe).
    public var stripeSuccessURL = "https://kindred.invalid/billing/success?session_id={CHECKOUT_SESSION_ID}"
    /// Where Checkout sends the buyer who gave up.
    public var stripeCancelURL = "https://kindred.invalid/billing/cancel"
    /// The accepted age of a Stripe signature's timestamp (300 s).
    public var stripeTolerance: Duration = .seconds(300)
    /// `KINDRED_REVENUECAT_WEBHOOK_AUTH`: the exact `Authorization` header value RevenueCat sends.
    public var revenueCatWebhookAuthorization: String?
    /// `KINDRED_REVENUECAT_SIGNING_KEY` (optional): a Base64 SPKI Ed25519 public key; when set,
    /// `X-RevenueCat-Signature` (Base64 Ed25519 over the raw body) is required too.
    public var revenueCatSigningKey: String?
    /// `billing.revenuecat.maxEventAgeSeconds`: a RevenueCat event whose `event_timestamp_ms` is
    /// older than this (or this far in the future) is refused, 422 `stale_event`, so a captured
    /// request cannot be replayed after its inbox row is pruned. RevenueCat retries for about
    /// 2.6 hours; the default, one day, leaves room. 0 turns the check off.
    public var revenueCatMaxEventAge: Duration = .seconds(86_400)
    /// `KINDRED_REVENUECAT_API_KEY`: the default secret key for API v2.
    public var revenueCatAPIKey: String?
    /// RevenueCat's API (https://api.revenuecat.com).
    public var revenueCatBaseURL = URL(string: "https://api.revenuecat.com")!
    /// The RevenueCat projects (several may feed one server).
    public var revenueCatProjects: [RevenueCatProject] = []
    /// Per-app products, entitlements and policies.
    public var apps: [AppID: BillingAppSettings] = Dictionary(
        uniqueKeysWithValues: AppID.allCases.map { ($0, BillingAppSettings.developmentDefault(for: $0)) }
    )
    /// The inbox's attempts and backoff (8 attempts, 10 s to 1 h).
    public var inboxPolicy = RetryPolicy()
    /// How long a worker holds an inbox item before another may take it (60 s).
    public var inboxLease: Duration = .seconds(60)
    /// Inbox items claimed and applied at once per worker (256).
    public var inboxConcurrency = 256
    /// The most inbox items applied in one transaction (64): a claim is split into lanes of this
    /// size, applied concurrently; each user touched in a lane is recomputed once for it.
    public var inboxBatchSize = 64

    /// Creates the defaults: no secrets (the webhooks answer 500 until configured).
    public init() {}

    /// The configuration of `app` (its development default when not configured).
    public func app(_ app: AppID) -> BillingAppSettings {
        apps[app] ?? .developmentDefault(for: app)
    }

    /// The entitlement lookup keys that count in `project` (its own, else its app's).
    func revenueCatEntitlements(of project: RevenueCatProject) -> [String] {
        project.entitlements ?? app(project.app).revenueCatEntitlements
    }

    /// The RevenueCat projects of `app`, each with its effective API key.
    func revenueCatProjects(of app: AppID) -> [(project: RevenueCatProject, apiKey: String)] {
        revenueCatProjects.filter { $0.app == app }.compactMap { project in
            guard let key = project.apiKey ?? revenueCatAPIKey else { return nil }
            return (project, key)
        }
    }
}
