import AsyncHTTPClient
import Foundation
import KindredStore
import Logging

/// Billing's parts, built once per server by `buildServerParts`: the controller behind the
/// `/v1/me/subscription*`, `/v1/me/entitlements` and `/v1/billing/stripe/*` operations, the
/// webhooks, the inbox applier (registered on the platform's worker), the entitlement checks
/// other domains use and the operator's tools.
struct BillingDomain: Sendable {
    let controller: BillingController
    let administration: BillingAdministration
    let entitlements: Entitlements
    let webhooks: BillingWebhooks
    let applier: BillingApplier

    /// Builds the domain and registers the inbox's queue handler.
    /// - Throws: `QueueError.duplicateHandler` when built twice on one platform.
    static func make(_ dependencies: Dependencies, realtime: RealtimePublisher, httpClient: HTTPClient = .shared) throws -> BillingDomain {
        let settings = dependencies.billing
        let database = dependencies.database
        let clock = dependencies.clock
        let applier = BillingApplier(database: database, settings: settings, realtime: realtime, clock: clock)
        let sync = BillingSync.configured(
            database: database, applier: applier, settings: settings, clock: clock, httpClient: httpClient
        )
        let entitlements = Entitlements(database: database, clock: clock, settings: settings)
        try dependencies.platform.worker.register(BillingInbox.handler(applier: applier, settings: settings))
        var logger = dependencies.logger
        logger[metadataKey: "domain"] = "billing"
        return BillingDomain(
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
