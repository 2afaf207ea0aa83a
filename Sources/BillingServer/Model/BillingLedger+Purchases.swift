import KindredServerCore
import SQLKit

/// A one-time purchase (a row of `kindred_billing_purchases`): bought in a Stripe Checkout and
/// recorded when the session is verified; never a plan entry.
struct BillingPurchase: Sendable, Hashable {
    /// The Checkout Session (`cs_…`): one purchase per session.
    var sessionID: String
    /// The buyer.
    var userID: String
    /// The buyer's app.
    var app: AppID
    /// The one-time price.
    var priceID: String
    /// The item's name from the app's one-time products.
    var item: String
    /// What it was for (the payment page's id).
    var reference: String?
    /// What the session charged, in the currency's smallest unit.
    var amountTotal: Int64?
    /// The currency.
    var currency: String?
    /// Whether it was a test-mode session.
    var sandbox: Bool
    /// When it was recorded (ms since 1970).
    var createdAt: Int64

    static let columns = [
        "session_id", "user_id", "app", "price_id", "item", "reference", "amount_total", "currency", "sandbox", "created_at",
    ]

    init(
        sessionID: String, userID: String, app: AppID, priceID: String, item: String, reference: String?,
        amountTotal: Int64?, currency: String?, sandbox: Bool, createdAt: Int64
    ) {
        self.sessionID = sessionID
        self.userID = userID
        self.app = app
        self.priceID = priceID
        self.item = item
        self.reference = reference
        self.amountTotal = amountTotal
        self.currency = currency
        self.sandbox = sandbox
        self.createdAt = createdAt
    }

    init(row: any SQLRow) throws {
        sessionID = try row.decode(column: "session_id", as: String.self)
        userID = try row.decode(column: "user_id", as: String.self)
        app = try BillingRows.enumValue(row, "app")
        priceID = try row.decode(column: "price_id", as: String.self)
        item = try row.decode(column: "item", as: String.self)
        reference = try row.decode(column: "reference", as: String?.self)
        amountTotal = try row.decode(column: "amount_total", as: Int64?.self)
        currency = try row.decode(column: "currency", as: String?.self)
        sandbox = try row.decode(column: "sandbox", as: Bool.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
    }
}

extension BillingLedger {
    /// Records a purchase once: a second verification of the same session changes nothing.
    static func record(_ purchase: BillingPurchase, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "kindred_billing_purchases").columns(BillingPurchase.columns)
            .values(
                SQLBind(purchase.sessionID), SQLBind(purchase.userID), SQLBind(purchase.app.rawValue), SQLBind(purchase.priceID),
                SQLBind(purchase.item), SQLBind(purchase.reference), SQLBind(purchase.amountTotal), SQLBind(purchase.currency),
                SQLBind(purchase.sandbox), SQLBind(purchase.createdAt)
            )
            .ignoringConflicts(with: ["session_id"])
            .run()
    }

    /// A user's purchases, newest first.
    static func purchases(of userID: String, on sql: any SQLDatabase) async throws -> [BillingPurchase] {
        try await sql.select().columns(BillingPurchase.columns).from("kindred_billing_purchases")
            .where("user_id", .equal, userID).orderBy("created_at", .descending).orderBy("session_id")
            .all().map(BillingPurchase.init(row:))
    }
}
