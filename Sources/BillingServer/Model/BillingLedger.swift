import KindredServerCore
import Foundation
import KindredStore
import SQLKit

/// The plan history's statements: reads, the append-only write with its no-op rule, the
/// per-user record's recomputation, and provider links. Every function runs on the caller's
/// connection or transaction, so an event's effects commit together with its idempotency record.
struct BillingLedger: Sendable {
    /// Per-app products and policies.
    let settings: BillingSettings

    /// The user's entries, oldest provider event first.
    static func plans(of userID: String, on sql: any SQLDatabase) async throws -> [PlanEntry] {
        try await sql.select().columns(BillingRows.planColumns).from("kindred_billing_plans")
            .where("user_id", .equal, userID)
            .orderBy("event_time").orderBy("created_at").orderBy("id")
            .all().map(BillingRows.plan)
    }

    /// The latest entry of one of the user's lineages (by `SubscriptionSnapshot.isLater`), if any.
    static func latest(userID: String, lineage: LineageKey, on sql: any SQLDatabase) async throws -> PlanEntry? {
        try await heads(userID: userID, lineage: lineage, on: sql).latest
    }

    /// Appends `entry` unless the lineage's latest entry already has its expiration (a no-op,
    /// as Pulse's rule says); entries are never edited.
    /// - Returns: whether a row was written.
    @discardableResult
    static func append(_ entry: PlanEntry, on sql: any SQLDatabase) async throws -> Bool {
        let heads = try await Self.heads(userID: entry.userID, lineage: entry.lineageKey, on: sql)
        if let latest = heads.latest, latest.expiration == entry.expiration {
            return false
        }
        try await insert(entry, heads: heads, on: sql)
        return true
    }

    /// Inserts an entry without the no-op check (backfills of distinct past periods).
    static func insert(_ entry: PlanEntry, on sql: any SQLDatabase) async throws {
        try await insert(entry, heads: Self.heads(userID: entry.userID, lineage: entry.lineageKey, on: sql), on: sql)
    }

    /// Inserts an entry and moves its lineage's heads (`heads` as read in this transaction). In an
    /// inbox lane, for a user it locked, both are deferred to the lane's next flush.
    private static func insert(_ entry: PlanEntry, heads: LineageHeads, on sql: any SQLDatabase) async throws {
        if let memo = BillingLaneSQL.memo(of: sql), memo.deferInsert(entry, heads: heads.advanced(by: entry)) {
            return
        }
        try await insertRow(entry, on: sql)
        try await advanceHeads(to: entry, from: heads, on: sql)
    }

    /// The plan entry's row, alone.
    static func insertRow(_ entry: PlanEntry, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "kindred_billing_plans")
            .columns(BillingRows.planColumns + ["updated_at"])
            .values(
                SQLBind(entry.id), SQLBind(entry.userID), SQLBind(entry.app.rawValue), SQLBind(entry.planType),
                SQLBind(entry.productID), SQLBind(entry.platform.rawValue), SQLBind(entry.provider.rawValue),
                SQLBind(entry.lineage), SQLBind(entry.kind.rawValue), SQLBind(entry.expiration), SQLBind(entry.eventTime),
                SQLBind(entry.eventID), SQLBind(entry.sandbox), SQLBind(entry.createdAt), SQLBind(entry.updatedAt)
            )
            .run()
    }

    /// The stored records of several users in one read, by user.
    static func records(of userIDs: [String], on sql: any SQLDatabase) async throws -> [String: SubscriptionRecord] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await sql.all(BillingQueries.recordsOf.binding(BillingQueries.idSet(userIDs, dialect: sql.dialect)))
        let records = try rows.map(SubscriptionRecord.init(row:))
        return Dictionary(records.map { ($0.userID, $0) }) { first, _ in first }
    }

    /// The user's stored record, if any.
    static func record(of userID: String, on sql: any SQLDatabase) async throws -> SubscriptionRecord? {
        try await sql.select().columns(SubscriptionRecord.columns)
            .from("kindred_billing_subscriptions").where("user_id", .equal, userID)
            .first().map(SubscriptionRecord.init(row:))
    }

    /// What a recomputation found.
    struct Recomputed: Sendable {
        /// The record before (nil when the user had none).
        var before: SubscriptionRecord?
        /// The record now stored.
        var after: SubscriptionRecord
        /// The computation it was made from.
        var snapshot: SubscriptionSnapshot
        /// Entries written for the user in this commit.
        var appended: Int = 0

        /// Whether what entitlements derive from changed.
        var changed: Bool { before.map { !$0.sameComputation(as: after) } ?? true }
        /// Whether `after` differs from the stored record (it must be saved).
        var needsSave: Bool { before != after }
    }

    /// Recomputes the user's state from the lineages' heads (`current(of:)`) and stores the
    /// record (creating it with the denormalised user fields when the app allows them).
    func recompute(userID: String, app: AppID, now: Date, on sql: any SQLDatabase) async throws -> Recomputed {
        try await recompute(
            userID: userID, app: app, now: now, plans: Self.current(of: userID, on: sql),
            before: Self.record(of: userID, on: sql), on: sql
        )
    }

    /// Recomputes the user's state from `plans` (its `current(of:)`, read in this transaction)
    /// and its stored record `before`, and stores the new record.
    func recompute(
        userID: String, app: AppID, now: Date, plans: [PlanEntry], before: SubscriptionRecord?, on sql: any SQLDatabase
    ) async throws -> Recomputed {
        let recomputed = try await recomputation(userID: userID, app: app, now: now, plans: plans, before: before, on: sql)
        if recomputed.needsSave { try await Self.save(recomputed.after, on: sql) }
        return recomputed
    }

    /// The recomputation `recompute(userID:app:now:plans:before:on:)` makes, without storing the
    /// record (the caller saves `after` when `needsSave`, e.g. several users' in one statement).
    func recomputation(
        userID: String, app: AppID, now: Date, plans: [PlanEntry], before: SubscriptionRecord?, on sql: any SQLDatabase
    ) async throws -> Recomputed {
        let appSettings = settings.app(app)
        let snapshot = SubscriptionSnapshot.compute(
            plans: plans, now: Int64(now.timeIntervalSince1970.rounded(.down)), sandboxGrantsAccess: appSettings.sandboxGrantsAccess
        )
        let nowMs = now.millisecondsSince1970
        var after = before ?? SubscriptionRecord(userID: userID, app: app, status: .unknown, createdAt: nowMs, updatedAt: nowMs)
        if before == nil, appSettings.denormalizeUserFields {
            (after.username, after.email) = try await Self.userFields(userID: userID, on: sql)
        }
        after.status = snapshot.state
        after.latestExpiration = snapshot.latestExpiration
        after.trialEnd = snapshot.trialEndDate
        after.doubleBilling = snapshot.doubleBilling
        after.platform = snapshot.current?.latest.platform
        after.planType = snapshot.current?.latest.planType
        if let before, before.sameComputation(as: after) {
            return Recomputed(before: before, after: before, snapshot: snapshot)
        }
        after.updatedAt = nowMs
        return Recomputed(before: before, after: after, snapshot: snapshot)
    }

    /// Inserts or replaces several users' records: one statement on PostgreSQL (the rows as one
    /// JSON bind read by `json_populate_recordset`, so NULLs stay NULLs), one per record on SQLite.
    static func save(_ records: [SubscriptionRecord], on sql: any SQLDatabase) async throws {
        guard sql.dialect.bindsArrays, records.count > 1 else {
            for record in records { try await save(record, on: sql) }
            return
        }
        let rows = String(decoding: try JSONEncoder().encode(records.map(SubscriptionRow.init)), as: UTF8.self)
        try await sql.run(BillingQueries.saveRecordsJSON.binding(rows))
    }

    /// A record as a JSON object keyed by column (absent keys are NULL).
    private struct SubscriptionRow: Encodable {
        let record: SubscriptionRecord

        init(_ record: SubscriptionRecord) { self.record = record }

        enum CodingKeys: String, CodingKey {
            case userID = "user_id", app, username, email, platform, planType = "plan_type", status
            case latestExpiration = "latest_expiration", trialEnd = "trial_end", doubleBilling = "double_billing"
            case createdAt = "created_at", updatedAt = "updated_at"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(record.userID, forKey: .userID)
            try container.encode(record.app.rawValue, forKey: .app)
            try container.encodeIfPresent(record.username, forKey: .username)
            try container.encodeIfPresent(record.email, forKey: .email)
            try container.encodeIfPresent(record.platform?.rawValue, forKey: .platform)
            try container.encodeIfPresent(record.planType, forKey: .planType)
            try container.encode(record.status.rawValue, forKey: .status)
            try container.encodeIfPresent(record.latestExpiration, forKey: .latestExpiration)
            try container.encodeIfPresent(record.trialEnd, forKey: .trialEnd)
            try container.encode(record.doubleBilling, forKey: .doubleBilling)
            try container.encode(record.createdAt, forKey: .createdAt)
            try container.encode(record.updatedAt, forKey: .updatedAt)
        }
    }

    /// Inserts or replaces a record.
    static func save(_ record: SubscriptionRecord, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "kindred_billing_subscriptions")
            .columns(SubscriptionRecord.columns)
            .values(
                SQLBind(record.userID), SQLBind(record.app.rawValue), SQLBind(record.username), SQLBind(record.email),
                SQLBind(record.platform?.rawValue), SQLBind(record.planType), SQLBind(record.status.rawValue),
                SQLBind(record.latestExpiration), SQLBind(record.trialEnd), SQLBind(record.doubleBilling),
                SQLBind(record.createdAt), SQLBind(record.updatedAt)
            )
            .onConflict(with: ["user_id"]) { conflict in
                conflict.set(excludedValueOf: "username").set(excludedValueOf: "email")
                    .set(excludedValueOf: "platform").set(excludedValueOf: "plan_type")
                    .set(excludedValueOf: "status").set(excludedValueOf: "latest_expiration")
                    .set(excludedValueOf: "trial_end").set(excludedValueOf: "double_billing")
                    .set(excludedValueOf: "updated_at")
            }
            .run()
    }

    /// The user's display name and e-mail address (for the denormalised search fields).
    static func userFields(userID: String, on sql: any SQLDatabase) async throws -> (String?, String?) {
        let name = try await sql.select().column("display_name").from("kindred_users").where("id", .equal, userID)
            .first()?.decode(column: "display_name", as: String?.self)
        let email = try await sql.select().column("email").from("kindred_credentials")
            .where("user_id", .equal, userID).where("email", .isNot, SQLLiteral.null)
            .orderBy("created_at").limit(1).first()?.decode(column: "email", as: String?.self)
        return (name ?? nil, email ?? nil)
    }

    /// The app of an existing user, nil when there is no such user.
    /// - Parameter locking: also lock the user's row as `lock(_:on:)` does, in the same
    ///   statement (one round trip instead of two when the caller goes on to write).
    ///   An inbox lane (`BillingLaneSQL`) reads a user it has locked only once.
    static func app(ofUser userID: String, locking: Bool = false, on sql: any SQLDatabase) async throws -> AppID? {
        let memo = BillingLaneSQL.memo(of: sql)
        if let known = memo?.lockedApp(userID) { return known }
        if memo?.isAbsent(userID) == true { return nil }
        let query = sql.select().column("app").from("kindred_users").where("id", .equal, userID)
        guard let text = try await (locking ? query.for(.update) : query).first()?.decode(column: "app", as: String.self)
        else { return nil }
        let app = AppID(rawValue: text)
        if locking { memo?.locked(userID, app: app) }
        return app
    }

    /// Serializes the billing writes of these users until the caller's transaction ends: their
    /// `kindred_users` rows are locked (`FOR UPDATE` where the dialect has it; SQLite has a single
    /// writer), in id order, so two events of one user never compute from each other's
    /// uncommitted state.
    static func lock(_ userIDs: some Sequence<String>, on sql: any SQLDatabase) async throws {
        let memo = BillingLaneSQL.memo(of: sql)
        for id in Set(userIDs).sorted() where memo?.isLocked(id) != true {
            let rows = try await sql.select().column("app").from("kindred_users").where("id", .equal, id).for(.update).all()
            if let row = rows.first {
                memo?.locked(id, app: AppID(rawValue: try row.decode(column: "app", as: String.self)))
            }
        }
    }

    // MARK: - Provider links

    /// Remembers that `externalID` (a Stripe customer, a RevenueCat alias) is `userID` (the first link wins).
    static func link(provider: BillingProvider, externalID: String, to userID: String, now: Int64, on sql: any SQLDatabase) async throws {
        guard externalID != userID, !externalID.isEmpty else { return }
        try await sql.insert(into: "kindred_billing_links")
            .columns("provider", "external_id", "user_id", "created_at")
            .values(SQLBind(provider.rawValue), SQLBind(externalID), SQLBind(userID), SQLBind(now))
            .ignoringConflicts()
            .run()
    }

    /// The user a provider id is linked to.
    static func linkedUser(provider: BillingProvider, externalID: String, on sql: any SQLDatabase) async throws -> String? {
        try await sql.select().column("user_id").from("kindred_billing_links")
            .where("provider", .equal, provider.rawValue).where("external_id", .equal, externalID)
            .first()?.decode(column: "user_id", as: String.self)
    }

    /// The provider ids linked to a user, oldest first.
    static func links(of userID: String, provider: BillingProvider, on sql: any SQLDatabase) async throws -> [String] {
        try await sql.select().column("external_id").from("kindred_billing_links")
            .where("provider", .equal, provider.rawValue).where("user_id", .equal, userID)
            .orderBy("created_at").orderBy("external_id")
            .all().map { try $0.decode(column: "external_id", as: String.self) }
    }
}
