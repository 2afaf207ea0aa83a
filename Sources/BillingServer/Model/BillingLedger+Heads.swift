import KindredServerCore
import KindredStore
import SQLKit

extension BillingLedger {
    /// The head entries of one lineage of a user: for each sandbox flag, its latest entry and
    /// its latest trial entry (at most four entries, read through `kindred_billing_heads`).
    struct LineageHeads: Sendable {
        /// The entries the heads name.
        var entries: [PlanEntry]

        /// The lineage's latest entry over both sandbox flags.
        var latest: PlanEntry? { Self.latest(of: entries) }

        /// The latest entry with this sandbox flag.
        func head(sandbox: Bool) -> PlanEntry? { Self.latest(of: entries.filter { $0.sandbox == sandbox }) }

        /// The latest trial entry with this sandbox flag.
        func trialHead(sandbox: Bool) -> PlanEntry? {
            Self.latest(of: entries.filter { $0.sandbox == sandbox && $0.kind == .trial })
        }

        /// The heads once `entry` (of this lineage) is appended: for its sandbox flag, the head
        /// becomes `entry` when it is later, and the trial head too when `entry` is a later trial.
        func advanced(by entry: PlanEntry) -> LineageHeads {
            let head = head(sandbox: entry.sandbox)
            let trialHead = trialHead(sandbox: entry.sandbox)
            let newHead = head.map { SubscriptionSnapshot.isLater(entry, than: $0) ? entry : $0 } ?? entry
            var newTrial = trialHead
            if entry.kind == .trial, trialHead.map({ SubscriptionSnapshot.isLater(entry, than: $0) }) ?? true {
                newTrial = entry
            }
            var kept = entries.filter { $0.sandbox != entry.sandbox }
            kept.append(newHead)
            if let newTrial, newTrial.id != newHead.id { kept.append(newTrial) }
            return LineageHeads(entries: kept)
        }

        /// The latest of `entries` by `SubscriptionSnapshot.isLater`.
        static func latest(of entries: [PlanEntry]) -> PlanEntry? {
            entries.max { SubscriptionSnapshot.isLater($1, than: $0) }
        }
    }

    /// The heads of one of the user's lineages (one indexed read; none when an inbox lane has
    /// already read or written them for a user it locked).
    static func heads(userID: String, lineage: LineageKey, on sql: any SQLDatabase) async throws -> LineageHeads {
        let memo = BillingLaneSQL.memo(of: sql)
        if let known = memo?.heads(userID: userID, lineage: lineage) { return known }
        let key: [any Encodable & Sendable] = [userID, lineage.provider.rawValue, lineage.lineage]
        let rows = try await sql.all(BillingQueries.headsOfLineage.binding(key + key))
        let heads = LineageHeads(entries: try rows.map(BillingRows.plan))
        memo?.remember(heads, userID: userID, lineage: lineage)
        return heads
    }

    /// The entries the user's state depends on: every lineage's latest entry and latest trial
    /// entry, per sandbox flag. `SubscriptionSnapshot.compute` gives the same snapshot for these
    /// as for the whole history (it reads only each lineage's latest counted entry and the
    /// latest counted trial, and each of those is a head of its sandbox flag), and the set is
    /// empty exactly when the history is.
    static func current(of userID: String, on sql: any SQLDatabase) async throws -> [PlanEntry] {
        try await current(of: [userID], on: sql)[userID] ?? []
    }

    /// `current(of:)` for several users in one read, by user (users without entries are absent).
    static func current(of userIDs: [String], on sql: any SQLDatabase) async throws -> [String: [PlanEntry]] {
        guard !userIDs.isEmpty else { return [:] }
        let users = try BillingQueries.idSet(userIDs, dialect: sql.dialect)
        let rows = try await sql.all(BillingQueries.headsOf.binding(users, users))
        return Dictionary(grouping: try rows.map(BillingRows.plan), by: \.userID)
    }

    /// Moves the heads of `entry`'s lineage and sandbox flag to it where it is later, in the
    /// caller's transaction (callers hold the user's lock, `lock(_:on:)`).
    static func advanceHeads(to entry: PlanEntry, from heads: LineageHeads, on sql: any SQLDatabase) async throws {
        let advanced = heads.advanced(by: entry)
        BillingLaneSQL.memo(of: sql)?.remember(advanced, userID: entry.userID, lineage: entry.lineageKey)
        let planID = advanced.head(sandbox: entry.sandbox)?.id ?? entry.id
        let trialID = advanced.trialHead(sandbox: entry.sandbox)?.id
        guard planID != heads.head(sandbox: entry.sandbox)?.id || trialID != heads.trialHead(sandbox: entry.sandbox)?.id
        else { return }
        try await upsertHead(
            userID: entry.userID, provider: entry.provider, lineage: entry.lineage, sandbox: entry.sandbox,
            planID: planID, trialPlanID: trialID, on: sql
        )
    }

    /// Writes one lineage head row (insert, or replace the row of its lineage and sandbox flag).
    static func upsertHead(
        userID: String, provider: BillingProvider, lineage: String, sandbox: Bool, planID: String, trialPlanID: String?,
        on sql: any SQLDatabase
    ) async throws {
        try await sql.insert(into: "kindred_billing_heads")
            .columns("user_id", "provider", "lineage", "sandbox", "plan_id", "trial_plan_id")
            .values(
                SQLBind(userID), SQLBind(provider.rawValue), SQLBind(lineage), SQLBind(sandbox),
                SQLBind(planID), SQLBind(trialPlanID)
            )
            .onConflict(with: ["user_id", "provider", "lineage", "sandbox"]) { conflict in
                conflict.set(excludedValueOf: "plan_id").set(excludedValueOf: "trial_plan_id")
            }
            .run()
    }
}
