import KindredServerCore
import KindredStore
import SQLKit

/// The tables of billing. Append only: a change is a new migration at the end.
enum BillingSchema {
    /// The billing migrations, in order.
    static let migrations: [Migration] = [createBilling, createHeads, createTransfers, createPurchases, createProviderResponses, userIndexes]

    /// Plan history, per-user subscription records, applied provider events and provider links.
    static let createBilling = Migration("0008_billing") { sql in
        // The append-only plan history: one row per change of a lineage, never updated.
        try await sql.create(table: "kindred_billing_plans")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("plan_type", type: .text, .notNull)
            .column("product_id", type: .text, .notNull)
            .column("platform", type: .text, .notNull)
            .column("provider", type: .text, .notNull)
            .column("lineage", type: .text, .notNull)
            .column("kind", type: .text, .notNull)
            .column("expiration", type: .bigint, .notNull)
            .column("event_time", type: .bigint, .notNull)
            .column("event_id", type: .text, .notNull)
            .column("sandbox", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_billing_plans_user").on("kindred_billing_plans")
            .column("user_id").column("provider").column("lineage").column("event_time").run()
        try await sql.create(index: "kindred_billing_plans_lineage").on("kindred_billing_plans")
            .column("provider").column("lineage").run()

        // Pulse's `subscriptions/{userId}`: the computed state, kept current with every append,
        // plus the denormalised search fields (only for apps that allow them).
        try await sql.create(table: "kindred_billing_subscriptions")
            .column("user_id", type: .text, .primaryKey(autoIncrement: false), .references("kindred_users", "id", onDelete: .cascade))
            .column("app", type: .text, .notNull)
            .column("username", type: .text)
            .column("email", type: .text)
            .column("platform", type: .text)
            .column("plan_type", type: .text)
            .column("status", type: .text, .notNull)
            .column("latest_expiration", type: .bigint)
            .column("trial_end", type: .bigint)
            .column("double_billing", type: .custom(SQLRaw("BOOLEAN")), .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_billing_subscriptions_status").on("kindred_billing_subscriptions")
            .column("app").column("status").column("latest_expiration").run()

        // Every provider event applied (or stored and ignored), by provider event id: the
        // idempotency record the inbox handler writes in the same transaction as its effect.
        try await sql.create(table: "kindred_billing_events")
            .column("provider", type: .text, .notNull)
            .column("event_id", type: .text, .notNull)
            .column("type", type: .text, .notNull)
            .column("user_id", type: .text, .references("kindred_users", "id", onDelete: .cascade))
            .column("outcome", type: .text, .notNull)
            .column("event_time", type: .bigint, .notNull)
            .column("applied_at", type: .bigint, .notNull)
            .primaryKey("provider", "event_id")
            .run()
        try await sql.create(index: "kindred_billing_events_user").on("kindred_billing_events").column("user_id").run()

        // Provider identities of a user: Stripe customers, RevenueCat aliases.
        try await sql.create(table: "kindred_billing_links")
            .column("provider", type: .text, .notNull)
            .column("external_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("provider", "external_id")
            .run()
        try await sql.create(index: "kindred_billing_links_user").on("kindred_billing_links").column("user_id").run()
    }

    /// The billing domain's entry in the deletion/export registry.
    static let userDataEntry = UserDataEntry(
        domain: "billing",
        tables: [
            UserDataTable("kindred_billing_heads"),
            UserDataTable("kindred_billing_transfers", userColumn: "to_user_id"),
            // The source of a transfer (a user id, or the provider's id when it named no user).
            UserDataTable("kindred_billing_transfers", userColumn: "from_id"),
            UserDataTable("kindred_billing_plans"),
            UserDataTable("kindred_billing_events"),
            UserDataTable("kindred_billing_links"),
            UserDataTable("kindred_billing_subscriptions"),
            UserDataTable("kindred_billing_purchases"),
            UserDataTable("kindred_billing_provider_responses"),
        ]
    )
}
