import KindredServerCore
import KindredStore
import SQLKit

extension BillingSchema {
    /// Each lineage's head: per (user, provider, lineage, sandbox flag) the id of its latest entry
    /// (by `SubscriptionSnapshot.isLater`) and of its latest trial entry, maintained in the
    /// transaction of every insert. The state is computed from these few entries instead of the
    /// whole history (the same answer: see `BillingLedger.current(of:)`).
    static let createHeads = Migration("0008b_billing_heads") { sql in
        try await sql.create(table: "kindred_billing_heads")
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("provider", type: .text, .notNull)
            .column("lineage", type: .text, .notNull)
            .column("sandbox", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("plan_id", type: .text, .notNull)
            .column("trial_plan_id", type: .text)
            .primaryKey("user_id", "provider", "lineage", "sandbox")
            .run()
        try await populateHeads(on: sql)
    }

    /// Fills `kindred_billing_heads` from the history (the entries written before the heads
    /// existed): the same order as `SubscriptionSnapshot.isLater` — event time, write time,
    /// ending kinds last, then id by code points.
    static func populateHeads(on sql: any SQLDatabase) async throws {
        try await sql.run(BillingQueries.populateHeads.binding())
    }

    /// `ORDER BY` terms putting a lineage's latest entry (alias `p`) first, as
    /// `SubscriptionSnapshot.isLater` orders them; ids compare by code points on both dialects.
    static func latestOrder(dialect: any SQLDialect) -> String {
        let collation = dialect.codePointCollation
        return """
            p.event_time DESC, p.created_at DESC, \
            CASE WHEN p.kind IN ('revocation', 'transfer_out', 'expiration') THEN 1 ELSE 0 END DESC, \
            p.id\(collation) DESC
            """
    }

    /// Transfers (RevenueCat `TRANSFER`) remembered per source, so an entry of the source that
    /// is applied after the transfer it predates (delivery out of order) still moves.
    static let createTransfers = Migration("0008c_billing_transfers") { sql in
        try await sql.create(table: "kindred_billing_transfers")
            .column("event_id", type: .text, .notNull)
            .column("from_id", type: .text, .notNull)
            .column("to_user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("event_time", type: .bigint, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("event_id", "from_id")
            .run()
        try await sql.create(index: "kindred_billing_transfers_from").on("kindred_billing_transfers")
            .column("from_id").column("event_time").run()
    }
}

extension BillingSchema {
    /// One-time purchases (Pulse's rounds) bought in a Stripe Checkout, one row per completed
    /// session: recorded on verification, never plan entries.
    static let createPurchases = Migration("0008d_billing_purchases") { sql in
        try await sql.create(table: "kindred_billing_purchases")
            .column("session_id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("price_id", type: .text, .notNull)
            .column("item", type: .text, .notNull)
            .column("reference", type: .text)
            .column("amount_total", type: .bigint)
            .column("currency", type: .text)
            .column("sandbox", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_billing_purchases_user").on("kindred_billing_purchases")
            .column("user_id").column("created_at").run()
    }
}
