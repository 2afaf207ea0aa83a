import KindredServerCore
import KindredStore
import SQLKit

/// A RevenueCat `TRANSFER` remembered for one of its sources.
struct BillingTransfer: Sendable, Equatable {
    /// The `TRANSFER` event's id.
    var eventID: String
    /// The source: a user id, or the provider's id when it named no user.
    var fromID: String
    /// The user access moved to.
    var toUserID: String
    /// The provider's event time (ms since 1970).
    var eventTime: Int64
}

extension BillingLedger {
    /// Remembers a transfer (idempotent per event and source).
    static func remember(_ transfer: BillingTransfer, now: Int64, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "kindred_billing_transfers")
            .columns("event_id", "from_id", "to_user_id", "event_time", "created_at")
            .values(
                SQLBind(transfer.eventID), SQLBind(transfer.fromID), SQLBind(transfer.toUserID),
                SQLBind(transfer.eventTime), SQLBind(now)
            )
            .ignoringConflicts()
            .run()
        BillingLaneSQL.memo(of: sql)?.checkedTransfers(of: [transfer.fromID], sources: [transfer.fromID])
    }

    /// The earliest transfer from any of `ids` at or after `time` (ms), if any (no read when an
    /// inbox lane knows none of them is a transfer's source).
    static func firstTransfer(from ids: [String], atOrAfter time: Int64, on sql: any SQLDatabase) async throws -> BillingTransfer? {
        guard !ids.isEmpty else { return nil }
        if BillingLaneSQL.memo(of: sql)?.knowsNoTransfer(from: ids) == true { return nil }
        return try await sql.select().columns("event_id", "from_id", "to_user_id", "event_time")
            .from("kindred_billing_transfers")
            .where("from_id", .in, Array(Set(ids)).sorted())
            .where("event_time", .greaterThanOrEqual, time)
            .orderBy("event_time").orderBy("event_id")
            .limit(1)
            .first()
            .map { row in
                BillingTransfer(
                    eventID: try row.decode(column: "event_id", as: String.self),
                    fromID: try row.decode(column: "from_id", as: String.self),
                    toUserID: try row.decode(column: "to_user_id", as: String.self),
                    eventTime: try row.decode(column: "event_time", as: Int64.self)
                )
            }
    }

    /// The lineage's latest entry at `transfer` (by `SubscriptionSnapshot.isLater` among the
    /// entries up to its time), leaving out the `transfer_out` that transfer itself wrote.
    static func latestBefore(
        _ transfer: BillingTransfer, userID: String, lineage: LineageKey, on sql: any SQLDatabase
    ) async throws -> PlanEntry? {
        try await sql.first(
            BillingQueries.latestBeforeTransfer.binding(
                userID, lineage.provider.rawValue, lineage.lineage, transfer.eventTime, transfer.eventID
            )
        ).map(BillingRows.plan)
    }
}
