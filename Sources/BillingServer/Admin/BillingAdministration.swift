import KindredServerCore
import Foundation
import KindredStore
import SQLKit

/// The operator's billing tools as plain Swift (the admin console renders them): the
/// subscriptions table with search, filters and paging; a user's detail with the computed state
/// and the plan history with provenance; refresh and "sync this user now"; the two backfills
/// with dry-run reports; the double-billing flags; the inbox's dead letters and re-drive.
public struct BillingAdministration: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: BillingSettings
    let applier: BillingApplier
    let sync: BillingSync
    let queue: WorkQueue

    /// The tri-state Active column: Unknown, Active or Expired.
    public enum Activity: String, Sendable, Equatable {
        /// No plan entries.
        case unknown
        /// The latest expiration is in the future.
        case active
        /// Every lineage has ended.
        case expired
    }

    /// A search of the subscriptions table.
    public struct Query: Sendable, Equatable {
        /// Matches the user id or a lineage (subscription id) exactly, or the plan type, username
        /// or e-mail as a case-insensitive substring.
        public var search: String?
        /// Only this state.
        public var status: SubscriptionState?
        /// Only this platform.
        public var platform: BillingPlatform?
        /// Only this app.
        public var app: AppID?
        /// Only records flagged for double billing.
        public var doubleBillingOnly: Bool
        /// Page size (1–200).
        public var limit: Int
        /// Rows skipped.
        public var offset: Int

        /// Creates a query (first page of 50, no filters).
        public init(
            search: String? = nil, status: SubscriptionState? = nil, platform: BillingPlatform? = nil, app: AppID? = nil,
            doubleBillingOnly: Bool = false, limit: Int = 50, offset: Int = 0
        ) {
            self.search = search
            self.status = status
            self.platform = platform
            self.app = app
            self.doubleBillingOnly = doubleBillingOnly
            self.limit = min(200, max(1, limit))
            self.offset = max(0, offset)
        }
    }

    /// One row of the table.
    public struct Row: Sendable, Equatable {
        /// The record (subscription id = user id, username, email, platform, type, status, latest expiration).
        public var record: SubscriptionRecord
        /// The tri-state Active column at the time of the query.
        public var activity: Activity
    }

    /// A page of the table.
    public struct Page: Sendable, Equatable {
        /// The rows, latest expiration first.
        public var rows: [Row]
        /// Rows matching the query in all.
        public var total: Int
    }

    /// A user's detail.
    public struct Detail: Sendable {
        /// The stored record (nil when the user has none yet).
        public var record: SubscriptionRecord?
        /// The state computed now from the history.
        public var snapshot: SubscriptionSnapshot
        /// The plan history, oldest provider event first, each with its provenance.
        public var plans: [PlanEntry]
        /// Provider ids linked to the user (Stripe customers, RevenueCat aliases).
        public var links: [(provider: BillingProvider, externalID: String)]
        /// The provider events recorded against the user, newest first (at most 100).
        public var events: [AppliedEvent]
        /// The last sync's exchanges with each provider, redacted (support's "raw response").
        public var responses: [ProviderResponses] = []
    }

    /// A provider event as recorded by the inbox.
    public struct AppliedEvent: Sendable, Equatable {
        /// The provider.
        public var provider: BillingProvider
        /// Its event id.
        public var eventID: String
        /// Its type.
        public var type: String
        /// What applying it did.
        public var outcome: String
        /// The provider's event time (ms since 1970).
        public var eventTime: Int64
        /// When it was applied (ms since 1970).
        public var appliedAt: Int64
        /// The user it was applied to (nil when it matched none).
        public var userID: String? = nil
    }

    /// The subscriptions table.
    public func subscriptions(_ query: Query) async throws -> Page {
        // A search scans the table (LIKE): off the request threads.
        let (total, records) = try await database.longRead { sql in try await Self.search(query, on: sql) }
        let now = Int64(clock.now().timeIntervalSince1970)
        return Page(rows: records.map { Row(record: $0, activity: Self.activity(of: $0, now: now)) }, total: total)
    }

    /// The page's count and rows.
    private static func search(_ query: Query, on sql: any SQLDatabase) async throws -> (Int, [SubscriptionRecord]) {
        func filtered(_ select: SQLSelectBuilder) -> SQLSelectBuilder {
            var select = select
            if let status = query.status { select = select.where("status", .equal, status.rawValue) }
            if let platform = query.platform { select = select.where("platform", .equal, platform.rawValue) }
            if let app = query.app { select = select.where("app", .equal, app.rawValue) }
            if query.doubleBillingOnly { select = select.where("double_billing", .equal, true) }
            if let text = query.search?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
                let pattern = "%" + Self.escapeLike(text.lowercased().prefix(200)) + "%"
                select = select.where(group: { group in
                    var predicates = group.where("user_id", .equal, text)
                    for column in ["plan_type", "username", "email"] {
                        predicates = predicates.orWhere(SQLQueryString("LOWER(\(ident: column)) LIKE \(bind: pattern) ESCAPE '\\'"))
                    }
                    return predicates.orWhere(
                        SQLQueryString("user_id IN (SELECT user_id FROM kindred_billing_plans WHERE lineage = \(bind: text))")
                    )
                })
            }
            return select
        }
        let total = try await filtered(sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("kindred_billing_subscriptions"))
            .first()?.decode(column: "n", as: Int.self) ?? 0
        let records = try await filtered(sql.select().columns(SubscriptionRecord.columns)
            .from("kindred_billing_subscriptions"))
            .orderBy(SQLRaw("latest_expiration IS NULL")).orderBy("latest_expiration", .descending).orderBy("user_id")
            .limit(query.limit).offset(query.offset)
            .all().map(SubscriptionRecord.init(row:))
        return (total, records)
    }

    /// The tri-state Active column of a record at `now` (Unix seconds).
    public static func activity(of record: SubscriptionRecord, now: Int64) -> Activity {
        guard record.status != .unknown, let latest = record.latestExpiration else { return .unknown }
        return latest > now ? .active : .expired
    }

    /// A user's detail; nil when there is no such user.
    public func detail(userID: String) async throws -> Detail? {
        let sql = database.sql
        guard let app = try await BillingLedger.app(ofUser: userID, on: sql) else { return nil }
        let plans = try await BillingLedger.plans(of: userID, on: sql)
        let snapshot = SubscriptionSnapshot.compute(
            plans: plans, now: Int64(clock.now().timeIntervalSince1970), sandboxGrantsAccess: settings.app(app).sandboxGrantsAccess
        )
        let links = try await sql.select().columns("provider", "external_id").from("kindred_billing_links")
            .where("user_id", .equal, userID).orderBy("created_at").all()
            .map { row -> (provider: BillingProvider, externalID: String) in
                (try BillingRows.enumValue(row, "provider"), try row.decode(column: "external_id", as: String.self))
            }
        let events = try await recentEvents(userID: userID, limit: 100)
        return Detail(
            record: try await BillingLedger.record(of: userID, on: sql), snapshot: snapshot, plans: plans, links: links,
            events: events, responses: try await BillingLedger.responses(of: userID, on: sql)
        )
    }

    /// A user's record in Pulse's `subscriptions/{userId}` document shape; nil when there is no
    /// such user.
    public func document(userID: String) async throws -> PulseDocument? {
        try await BillingLedger.document(
            of: userID, settings: settings, now: Int64(clock.now().timeIntervalSince1970.rounded(.down)), on: database.sql
        )
    }

    /// Recomputes and stores a user's record (the console's Refresh); nil when there is no such user.
    public func refresh(userID: String) async throws -> SubscriptionRecord? {
        guard let app = try await BillingLedger.app(ofUser: userID, on: database.sql) else { return nil }
        let now = clock.now()
        var refresh = BillingEffect(userID: userID, outcome: "refresh")
        refresh.touched[userID] = app
        let effect = refresh
        let applier = applier
        let results = try await applier.realtime.transaction { transaction in
            try await applier.commit(effect, now: now, on: transaction)
        }
        return results[userID]?.after
    }

    /// "Sync this user now": both provider syncs, then the record; nil when there is no such user.
    /// - Parameter providers: the providers to read (both by default; the console and
    ///   `kindred billing sync --provider` can choose one).
    public func syncNow(
        userID: String, providers: Set<BillingProvider> = [.stripe, .revenuecat]
    ) async throws -> (appended: Int, failed: [BillingProvider], record: SubscriptionRecord?)? {
        guard let app = try await BillingLedger.app(ofUser: userID, on: database.sql) else { return nil }
        let report = await sync.sync(userID: userID, app: app, providers: providers)
        return (report.appended, report.failed, try await refresh(userID: userID))
    }

    /// Records flagged for double billing (both providers active at the last computation).
    public func doubleBilled(limit: Int = 100) async throws -> [SubscriptionRecord] {
        try await subscriptions(Query(doubleBillingOnly: true, limit: limit)).rows.map(\.record)
    }

    /// The inbox's dead letters, newest first.
    public func deadLetters(limit: Int = 100) async throws -> [DeadLetter] {
        try await queue.deadLetters(queue: BillingInbox.queue, limit: limit)
    }

    /// Puts one dead letter back on the inbox (applied idempotently, so re-driving an applied event is harmless).
    /// - Throws: `QueueError.unknownDeadLetter`.
    public func redrive(deadLetterID: String) async throws {
        try await queue.redrive(id: deadLetterID)
        queue.wake()
    }

    /// Puts every billing dead letter back.
    /// - Returns: how many.
    public func redriveAll() async throws -> Int {
        let count = try await queue.redriveAll(queue: BillingInbox.queue)
        queue.wake()
        return count
    }

    /// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
    static func escapeLike(_ text: Substring) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
