import KindredServerCore
import Foundation
import SQLKit

/// A row of `kindred_billing_subscriptions`: Pulse's `subscriptions/{userId}` document without
/// its plans (they are `kindred_billing_plans`), kept current with every append.
public struct SubscriptionRecord: Sendable, Hashable, Codable {
    /// The user (Pulse's document id).
    public var userID: String
    /// The user's app.
    public var app: AppID
    /// The denormalised display name, when the app allows it.
    public var username: String?
    /// The denormalised e-mail address, when the app allows it.
    public var email: String?
    /// The platform of the plan giving the latest expiration.
    public var platform: BillingPlatform?
    /// The plan type giving the latest expiration.
    public var planType: String?
    /// The computed state.
    public var status: SubscriptionState
    /// The latest expiration (Unix seconds).
    public var latestExpiration: Int64?
    /// The most recent trial's end (Unix seconds).
    public var trialEnd: Int64?
    /// Whether both providers held an active paid plan at the last computation.
    public var doubleBilling: Bool
    /// When the record was created (ms since 1970).
    public var createdAt: Int64
    /// When it last changed (ms since 1970).
    public var updatedAt: Int64

    /// The columns, in `init(row:)` order.
    static let columns = [
        "user_id", "app", "username", "email", "platform", "plan_type", "status", "latest_expiration",
        "trial_end", "double_billing", "created_at", "updated_at",
    ]

    /// `columns` as a select list, for the statements (`BillingQueries`).
    static let selectList = columns.joined(separator: ", ")

    /// Creates a record.
    public init(
        userID: String, app: AppID, username: String? = nil, email: String? = nil, platform: BillingPlatform? = nil,
        planType: String? = nil, status: SubscriptionState, latestExpiration: Int64? = nil, trialEnd: Int64? = nil,
        doubleBilling: Bool = false, createdAt: Int64, updatedAt: Int64
    ) {
        self.userID = userID
        self.app = app
        self.username = username
        self.email = email
        self.platform = platform
        self.planType = planType
        self.status = status
        self.latestExpiration = latestExpiration
        self.trialEnd = trialEnd
        self.doubleBilling = doubleBilling
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Reads a row selected with `columns`.
    init(row: any SQLRow) throws {
        userID = try row.decode(column: "user_id", as: String.self)
        app = try BillingRows.enumValue(row, "app")
        username = try row.decode(column: "username", as: String?.self)
        email = try row.decode(column: "email", as: String?.self)
        platform = try row.decode(column: "platform", as: String?.self).flatMap(BillingPlatform.init(rawValue:))
        planType = try row.decode(column: "plan_type", as: String?.self)
        status = try BillingRows.enumValue(row, "status")
        latestExpiration = try row.decode(column: "latest_expiration", as: Int64?.self)
        trialEnd = try row.decode(column: "trial_end", as: Int64?.self)
        doubleBilling = try row.decode(column: "double_billing", as: Bool.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
        updatedAt = try row.decode(column: "updated_at", as: Int64.self)
    }

    /// Whether the computed part (what entitlements derive from) differs from `other`'s.
    func sameComputation(as other: SubscriptionRecord) -> Bool {
        status == other.status && latestExpiration == other.latestExpiration && trialEnd == other.trialEnd
            && doubleBilling == other.doubleBilling && platform == other.platform && planType == other.planType
    }
}

/// Decoding helpers for billing rows.
enum BillingRows {
    /// A stored value that does not decode: a corrupt row, never the caller's fault.
    struct Corrupt: Error, CustomStringConvertible {
        var description: String
    }

    /// Decodes a text column as a `RawRepresentable` enum.
    static func enumValue<T: RawRepresentable>(_ row: any SQLRow, _ column: String) throws -> T where T.RawValue == String {
        let text = try row.decode(column: column, as: String.self)
        guard let value = T(rawValue: text) else { throw Corrupt(description: "\(column) \"\(text)\" is not a \(T.self)") }
        return value
    }

    /// The plan columns, in `plan(_:)` order.
    static let planColumns = [
        "id", "user_id", "app", "plan_type", "product_id", "platform", "provider", "lineage", "kind", "expiration",
        "event_time", "event_id", "sandbox", "created_at",
    ]

    /// `planColumns` as a select list, for the statements (`BillingQueries`).
    static let planSelectList = planColumns.joined(separator: ", ")

    /// Reads a plan row.
    static func plan(_ row: any SQLRow) throws -> PlanEntry {
        PlanEntry(
            id: try row.decode(column: "id", as: String.self),
            userID: try row.decode(column: "user_id", as: String.self),
            app: try enumValue(row, "app"),
            planType: try row.decode(column: "plan_type", as: String.self),
            productID: try row.decode(column: "product_id", as: String.self),
            platform: try enumValue(row, "platform"),
            provider: try enumValue(row, "provider"),
            lineage: try row.decode(column: "lineage", as: String.self),
            kind: try enumValue(row, "kind"),
            expiration: try row.decode(column: "expiration", as: Int64.self),
            eventTime: try row.decode(column: "event_time", as: Int64.self),
            eventID: try row.decode(column: "event_id", as: String.self),
            sandbox: try row.decode(column: "sandbox", as: Bool.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self)
        )
    }
}
