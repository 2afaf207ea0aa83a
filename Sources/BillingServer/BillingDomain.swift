import AsyncHTTPClient
import Foundation
import KindredStore
import KindredServerCore
import Logging

/// Billing's parts, built once per server by `BillingDomain.install`: the controller behind the
/// `/v1/me/subscription*`, `/v1/me/entitlements` and `/v1/billing/stripe/*` operations, the
/// webhooks, the inbox applier (registered on the platform's worker), the entitlement checks
/// other domains use and the operator's tools.
package struct BillingParts: Sendable {
    let controller: BillingController
    let administration: BillingAdministration
    let entitlements: BillingEntitlements
    let webhooks: BillingWebhooks
    let applier: BillingApplier

    /// Builds the domain and registers the inbox's queue handler.
    /// - Throws: `QueueError.duplicateHandler` when built twice on one platform.
    static func make(
        _ server: DomainServer, settings: BillingSettings, httpClient: HTTPClient = .shared
    ) throws -> BillingParts {
        let dependencies = server.dependencies
        let realtime = server.realtime.publisher
        let database = dependencies.database
        let clock = dependencies.clock
        let applier = BillingApplier(database: database, settings: settings, realtime: realtime, clock: clock)
        let sync = BillingSync.configured(
            database: database, applier: applier, settings: settings, clock: clock, httpClient: httpClient
        )
        let entitlements = BillingEntitlements(database: database, clock: clock, settings: settings)
        try dependencies.platform.worker.register(BillingInbox.handler(applier: applier, settings: settings))
        let logger = server.environment.logger(for: "billing")
        return BillingParts(
            controller: BillingController(
                database: database, clock: clock, settings: settings, entitlements: entitlements, sync: sync,
                rateLimiter: RateLimiter(database: database, clock: clock), logger: logger
            ),
            administration: BillingAdministration(
                database: database, clock: clock, settings: settings, applier: applier, sync: sync, queue: dependencies.platform.queue
            ),
            entitlements: entitlements,
            webhooks: BillingWebhooks(settings: settings, queue: dependencies.platform.queue, clock: clock),
            applier: applier
        )
    }
}

/// Billing as a domain of the server: its migrations, user data, the webhooks on the router, the
/// inbox's queue handler, and the services it provides: the core contract's subscription routes
/// (`SubscriptionService`) and its operator tools (`BillingAdministration`).
package struct BillingDomain: ServerDomain {
    /// Provider secrets, base URLs, products and the inbox's retry policy.
    package var settings: BillingSettings

    /// Creates the domain.
    package init(settings: BillingSettings = BillingSettings()) {
        self.settings = settings
    }

    /// `billing`.
    package var name: String { "billing" }
    /// Its headline numbers on the console overview.
    package func adminOverview(environment: DomainEnvironment) -> AdminOverviewSection? { BillingAdminOverview.section(environment) }
    /// Billing's migrations.
    package var migrations: [Migration] { BillingSchema.migrations }
    /// Billing's tables with a user column.
    package var userData: [UserDataEntry] { [BillingSchema.userDataEntry] }

    /// The checks other domains ask through the core's `Entitlements`.
    package func entitlements(database: Database, clock: any WallClock) -> BillingEntitlements {
        BillingEntitlements(database: database, clock: clock, settings: settings)
    }

    /// Builds billing's parts, registers the inbox handler and the webhooks, and provides the
    /// subscription routes and the administration API.
    package func install(on server: DomainServer) async throws {
        let parts = try BillingParts.make(server, settings: settings)
        if settings.revenueCatWebhookAuthorization != nil, settings.revenueCatSigningKey == nil {
            server.environment.logger(for: "billing").warning(
                """
                RevenueCat webhooks are authenticated by the Authorization header ALONE: anyone who \
                learns it can forge events. Set KINDRED_REVENUECAT_SIGNING_KEY to require RevenueCat's \
                Ed25519 signature (docs/billing.md, "Webhooks").
                """
            )
        }
        parts.webhooks.register(on: server.router)
        server.services.provide(parts.controller as any SubscriptionService, as: (any SubscriptionService).self)
        server.services.provide(parts.administration)
    }
}

/// The core contract's subscription routes are billing's controller.
extension BillingController: SubscriptionService {}
