import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The entitlement checks other domains use (Closer's premium packs, Ex-Eraser's tier, Pulse's
/// access). Every check fails closed: when the state cannot be read, access is denied.
public struct BillingEntitlements: Entitlements {
    let database: Database
    let clock: any WallClock
    let settings: BillingSettings

    /// Creates the checks on the server's database.
    public init(database: Database, clock: any WallClock, settings: BillingSettings) {
        self.database = database
        self.clock = clock
        self.settings = settings
    }

    /// The user's app and computed state, from the lineages' heads at the current time.
    /// - Throws: when the database fails; `nil` app means there is no such user.
    public func snapshot(userID: String) async throws -> (app: AppID?, snapshot: SubscriptionSnapshot) {
        let sql = database.sql
        guard let app = try await BillingLedger.app(ofUser: userID, on: sql) else { return (nil, .unknown) }
        let plans = try await BillingLedger.current(of: userID, on: sql)
        let now = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        return (app, SubscriptionSnapshot.compute(plans: plans, now: now, sandboxGrantsAccess: settings.app(app).sandboxGrantsAccess))
    }

    /// Whether the user has access to their app's paid features (false when it cannot be read).
    public func hasAccess(userID: String) async -> Bool {
        guard let read = try? await snapshot(userID: userID), read.app != nil else { return false }
        return read.snapshot.state.grantsAccess
    }

    /// Closer's `premium` (premium question packs): true only for a Closer user with access.
    /// Fails closed.
    public func closerPremium(userID: String) async -> Bool {
        guard let read = try? await snapshot(userID: userID), read.app == .closer else { return false }
        return read.snapshot.state.grantsAccess
    }

    /// The app's tier: its entitlement name (`healing_pass` for Ex-Eraser) while access lasts,
    /// else `free` — also when the state cannot be read.
    public func tier(userID: String) async -> String {
        guard let read = try? await snapshot(userID: userID), let app = read.app, read.snapshot.state.grantsAccess else {
            return "free"
        }
        return settings.app(app).entitlement
    }

    /// Whether the user's subscription to `app` grants access now (fails closed).
    public func hasPremium(userID: String, app: AppID) async -> Bool {
        guard let read = try? await snapshot(userID: userID), read.app == app else { return false }
        return read.snapshot.state.grantsAccess
    }

    /// Billing's stored record: `GET /v1/me` joins it for `hasPremium` (access while
    /// `latest_expiration` is in the future).
    public var premiumSource: PremiumSource? {
        PremiumSource(table: "kindred_billing_subscriptions", userColumn: "user_id", expiryColumn: "latest_expiration")
    }

    /// Which of `userIDs` have any plan in the history (one read).
    /// - Throws: when the read fails.
    public func usersWithPlans(among userIDs: Set<String>) async throws -> Set<String> {
        guard !userIDs.isEmpty else { return [] }
        return Set(
            try await database.sql.select().distinct().column("user_id").from("kindred_billing_plans")
                .where("user_id", .in, Array(userIDs)).all()
                .map { try $0.decode(column: "user_id", as: String.self) }
        )
    }
}
