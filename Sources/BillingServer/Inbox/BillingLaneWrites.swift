import KindredServerCore
import KindredStore
import SQLKit

/// Writes what an inbox lane deferred (`BillingLaneMemo.Pending`): the events' records, the plan
/// entries, then the lineage heads as they stand after them. On PostgreSQL each is one statement
/// over array binds (`unnest`), whatever their number; on SQLite, whose statements cost no round
/// trip, one statement per row. Records are inserted without a conflict clause: an event recorded
/// by someone else since the lane began fails the lane, which is then applied one event per
/// transaction.
enum BillingLaneWrites {
    static func write(_ pending: BillingLaneMemo.Pending, on sql: any SQLDatabase) async throws {
        if sql.dialect.bindsArrays {
            try await writeSets(pending, on: sql)
        } else {
            try await writeRows(pending, on: sql)
        }
    }

    private static func writeSets(_ pending: BillingLaneMemo.Pending, on sql: any SQLDatabase) async throws {
        let records = pending.records
        if !records.isEmpty {
            try await sql.run(
                BillingQueries.insertEventSets.binding(
                    records.map(\.provider.rawValue), records.map(\.eventID), records.map(\.type), records.map { $0.userID ?? "" },
                    records.map(\.outcome), records.map(\.eventTime), records.map(\.appliedAt)
                )
            )
        }
        let plans = pending.plans
        if !plans.isEmpty {
            try await sql.run(
                BillingQueries.insertPlanSets.binding(
                    plans.map(\.id), plans.map(\.userID), plans.map(\.app.rawValue), plans.map(\.planType), plans.map(\.productID),
                    plans.map(\.platform.rawValue), plans.map(\.provider.rawValue), plans.map(\.lineage), plans.map(\.kind.rawValue),
                    plans.map(\.expiration), plans.map(\.eventTime), plans.map(\.eventID), plans.map(\.sandbox),
                    plans.map(\.createdAt), plans.map(\.updatedAt)
                )
            )
        }
        let heads = pending.heads
        if !heads.isEmpty {
            try await sql.run(
                BillingQueries.upsertHeadSets.binding(
                    heads.map(\.userID), heads.map(\.provider.rawValue), heads.map(\.lineage), heads.map(\.sandbox), heads.map(\.planID),
                    heads.map { $0.trialPlanID ?? "" }
                )
            )
        }
    }

    private static func writeRows(_ pending: BillingLaneMemo.Pending, on sql: any SQLDatabase) async throws {
        for record in pending.records {
            try await sql.run(
                BillingQueries.insertEvent.binding(
                    record.provider.rawValue, record.eventID, record.type, record.userID, record.outcome, record.eventTime, record.appliedAt
                )
            )
        }
        for entry in pending.plans {
            try await BillingLedger.insertRow(entry, on: sql)
        }
        for head in pending.heads {
            try await BillingLedger.upsertHead(
                userID: head.userID, provider: head.provider, lineage: head.lineage, sandbox: head.sandbox,
                planID: head.planID, trialPlanID: head.trialPlanID, on: sql
            )
        }
    }
}
