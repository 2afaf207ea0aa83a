import KindredServerCore
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
            try await sql.raw("""
                INSERT INTO kindred_billing_events (provider, event_id, type, user_id, outcome, event_time, applied_at)
                SELECT provider, event_id, type, NULLIF(user_id, ''), outcome, event_time, applied_at FROM unnest(
                    \(bind: records.map(\.provider.rawValue)), \(bind: records.map(\.eventID)), \(bind: records.map(\.type)),
                    \(bind: records.map { $0.userID ?? "" }), \(bind: records.map(\.outcome)), \(bind: records.map(\.eventTime)),
                    \(bind: records.map(\.appliedAt))
                ) AS t(provider, event_id, type, user_id, outcome, event_time, applied_at)
                """).run()
        }
        let plans = pending.plans
        if !plans.isEmpty {
            try await sql.raw("""
                INSERT INTO kindred_billing_plans (\(unsafeRaw: (BillingRows.planColumns + ["updated_at"]).joined(separator: ", ")))
                SELECT * FROM unnest(
                    \(bind: plans.map(\.id)), \(bind: plans.map(\.userID)), \(bind: plans.map(\.app.rawValue)),
                    \(bind: plans.map(\.planType)), \(bind: plans.map(\.productID)), \(bind: plans.map(\.platform.rawValue)),
                    \(bind: plans.map(\.provider.rawValue)), \(bind: plans.map(\.lineage)), \(bind: plans.map(\.kind.rawValue)),
                    \(bind: plans.map(\.expiration)), \(bind: plans.map(\.eventTime)), \(bind: plans.map(\.eventID)),
                    \(bind: plans.map(\.sandbox)), \(bind: plans.map(\.createdAt)), \(bind: plans.map(\.updatedAt))
                )
                """).run()
        }
        let heads = pending.heads
        if !heads.isEmpty {
            try await sql.raw("""
                INSERT INTO kindred_billing_heads (user_id, provider, lineage, sandbox, plan_id, trial_plan_id)
                SELECT user_id, provider, lineage, sandbox, plan_id, NULLIF(trial_plan_id, '') FROM unnest(
                    \(bind: heads.map(\.userID)), \(bind: heads.map(\.provider.rawValue)), \(bind: heads.map(\.lineage)),
                    \(bind: heads.map(\.sandbox)), \(bind: heads.map(\.planID)), \(bind: heads.map { $0.trialPlanID ?? "" })
                ) AS t(user_id, provider, lineage, sandbox, plan_id, trial_plan_id)
                ON CONFLICT (user_id, provider, lineage, sandbox)
                DO UPDATE SET plan_id = excluded.plan_id, trial_plan_id = excluded.trial_plan_id
                """).run()
        }
    }

    private static func writeRows(_ pending: BillingLaneMemo.Pending, on sql: any SQLDatabase) async throws {
        for record in pending.records {
            try await sql.raw("""
                INSERT INTO kindred_billing_events (provider, event_id, type, user_id, outcome, event_time, applied_at)
                VALUES (\(bind: record.provider.rawValue), \(bind: record.eventID), \(bind: record.type), \(bind: record.userID),
                    \(bind: record.outcome), \(bind: record.eventTime), \(bind: record.appliedAt))
                """).run()
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
