import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// The last sync's provider exchanges of a user, one row per provider (redacted; for support).
public struct ProviderResponses: Sendable, Equatable {
    /// The provider.
    public var provider: BillingProvider
    /// When the sync ran (ms since 1970).
    public var fetchedAt: Int64
    /// `ok`, or why the sync failed.
    public var outcome: String
    /// The requests and redacted answers, as a JSON array of `{method, path, status, body}`.
    public var exchanges: String
}

extension BillingSchema {
    /// The last sync's redacted provider answers per user and provider.
    static let createProviderResponses = Migration("0008e_billing_provider_responses") { sql in
        try await sql.create(table: "kindred_billing_provider_responses")
            .column("user_id", type: .text, .notNull, .references("kindred_users", "id", onDelete: .cascade))
            .column("provider", type: .text, .notNull)
            .column("fetched_at", type: .bigint, .notNull)
            .column("outcome", type: .text, .notNull)
            .column("exchanges", type: .text, .notNull)
            .primaryKey("user_id", "provider")
            .run()
    }
}

extension BillingLedger {
    /// Replaces a user's last exchanges with `provider`.
    static func storeResponses(
        userID: String, provider: BillingProvider, outcome: String, exchanges: [ProviderResponseLog.Exchange], at: Int64,
        on sql: any SQLDatabase
    ) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(exchanges), as: UTF8.self)
        try await sql.insert(into: "kindred_billing_provider_responses")
            .columns("user_id", "provider", "fetched_at", "outcome", "exchanges")
            .values(SQLBind(userID), SQLBind(provider.rawValue), SQLBind(at), SQLBind(outcome), SQLBind(text))
            .onConflict(with: ["user_id", "provider"]) { conflict in
                conflict.set(excludedValueOf: "fetched_at").set(excludedValueOf: "outcome").set(excludedValueOf: "exchanges")
            }
            .run()
    }

    /// A user's last exchanges, Stripe first.
    static func responses(of userID: String, on sql: any SQLDatabase) async throws -> [ProviderResponses] {
        try await sql.select().columns("provider", "fetched_at", "outcome", "exchanges").from("kindred_billing_provider_responses")
            .where("user_id", .equal, userID).orderBy("provider", .descending).all()
            .map { row in
                ProviderResponses(
                    provider: try BillingRows.enumValue(row, "provider"), fetchedAt: try row.decode(column: "fetched_at", as: Int64.self),
                    outcome: try row.decode(column: "outcome", as: String.self), exchanges: try row.decode(column: "exchanges", as: String.self)
                )
            }
    }
}
