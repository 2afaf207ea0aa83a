import KindredServerCore
import AsyncHTTPClient
import Foundation
import KindredStore

extension BillingAdministration {
    /// The operator's billing tools outside a running server (`kindred billing`): the same
    /// provider clients as the server's (from `settings`), recomputed records published through
    /// the platform's realtime relay so that connected clients of a running server hear of them.
    /// Registers no queue handler.
    public static func standalone(
        database: Database, clock: any WallClock, settings: BillingSettings, platform: Platform,
        httpClient: HTTPClient = .shared
    ) -> BillingAdministration {
        let applier = BillingApplier(database: database, settings: settings, realtime: platform.realtime.publisher, clock: clock)
        return BillingAdministration(
            database: database, clock: clock, settings: settings, applier: applier,
            sync: .configured(database: database, applier: applier, settings: settings, clock: clock, httpClient: httpClient),
            queue: platform.queue
        )
    }

    /// The provider events applied most recently, newest first: every user's, or one user's.
    /// - Parameters:
    ///   - userID: only this user's events (nil: all, including events that matched no user).
    ///   - limit: at most this many (1–1000).
    public func recentEvents(userID: String? = nil, limit: Int = 50) async throws -> [AppliedEvent] {
        var select = database.sql.select()
            .columns("provider", "event_id", "type", "user_id", "outcome", "event_time", "applied_at")
            .from("kindred_billing_events")
        if let userID { select = select.where("user_id", .equal, userID) }
        return try await select.orderBy("applied_at", .descending).orderBy("event_id").limit(min(1000, max(1, limit))).all()
            .map { row in
                AppliedEvent(
                    provider: try BillingRows.enumValue(row, "provider"),
                    eventID: try row.decode(column: "event_id", as: String.self),
                    type: try row.decode(column: "type", as: String.self),
                    outcome: try row.decode(column: "outcome", as: String.self),
                    eventTime: try row.decode(column: "event_time", as: Int64.self),
                    appliedAt: try row.decode(column: "applied_at", as: Int64.self),
                    userID: try row.decode(column: "user_id", as: String?.self)
                )
            }
    }
}

extension BillingSync {
    /// The sync with the provider clients `settings` configures: Stripe when
    /// `KINDRED_STRIPE_API_KEY` is set, RevenueCat when a project has a key.
    static func configured(
        database: Database, applier: BillingApplier, settings: BillingSettings, clock: any WallClock, httpClient: HTTPClient
    ) -> BillingSync {
        let stripe = settings.stripeAPIKey.map { StripeClient(client: httpClient, baseURL: settings.stripeBaseURL, apiKey: $0) }
        let revenueCat = settings.revenueCatProjects.isEmpty
            ? nil : RevenueCatClient(client: httpClient, baseURL: settings.revenueCatBaseURL)
        return BillingSync(
            database: database, applier: applier, settings: settings, clock: clock, stripe: stripe, revenueCat: revenueCat
        )
    }
}
