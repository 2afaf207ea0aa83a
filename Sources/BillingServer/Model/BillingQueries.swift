import Foundation
import KindredStore
import SQLKit

/// Billing's hand-written statements, written once (`StatementText`, docs/server.md "Writing
/// SQL"): the ledger, the inbox lanes and the migrations run them by name. A text that depends
/// on the database (array binds, the code-point collation, the row lock) is made once per
/// dialect (`StatementText(perDialect:)`).
enum BillingQueries {
    // MARK: Id sets

    /// A membership test of a column against a set of ids (users, events, provider ids), as one
    /// bind whatever the set's size (so the statement's text, and its prepared statement, is the
    /// same for every set): `= ANY(?)` with a text array where the database binds arrays
    /// (PostgreSQL), `IN (SELECT value FROM json_each(?))` with a JSON array elsewhere (SQLite).
    /// Bind `idSet(_:dialect:)`.
    static func idSetTest(_ dialect: any SQLDialect) -> String {
        dialect.bindsArrays ? "= ANY(?)" : "IN (SELECT value FROM json_each(?))"
    }

    /// The value bound to an `idSetTest`.
    static func idSet(_ ids: [String], dialect: any SQLDialect) throws -> any Encodable & Sendable {
        if dialect.bindsArrays { return ids }
        return String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
    }

    // MARK: Subscriptions

    /// The stored records of a set of users. Binds: the user id set.
    static let recordsOf = StatementText(perDialect: {
        "SELECT \(SubscriptionRecord.selectList) FROM kindred_billing_subscriptions WHERE user_id \(idSetTest($0))"
    })

    /// Inserts or replaces the records given as one JSON array (PostgreSQL only:
    /// `json_populate_recordset`, so NULLs stay NULLs). Binds: the JSON text.
    static let saveRecordsJSON = StatementText(
        "INSERT INTO kindred_billing_subscriptions (\(SubscriptionRecord.selectList))"
            + " SELECT \(SubscriptionRecord.selectList) FROM json_populate_recordset(NULL::kindred_billing_subscriptions, ?::json)"
            + " ON CONFLICT (user_id) DO UPDATE SET username = excluded.username, email = excluded.email,"
            + " platform = excluded.platform, plan_type = excluded.plan_type, status = excluded.status,"
            + " latest_expiration = excluded.latest_expiration, trial_end = excluded.trial_end,"
            + " double_billing = excluded.double_billing, updated_at = excluded.updated_at"
    )

    // MARK: Plans and heads

    /// A lineage's head entries (latest and latest trial, per sandbox flag). Binds: user id,
    /// provider, lineage, user id, provider, lineage.
    static let headsOfLineage = StatementText(
        "SELECT \(BillingRows.planSelectList) FROM kindred_billing_plans WHERE id IN ("
            + "SELECT plan_id FROM kindred_billing_heads WHERE user_id = ? AND provider = ? AND lineage = ?"
            + " UNION SELECT trial_plan_id FROM kindred_billing_heads WHERE user_id = ? AND provider = ? AND lineage = ?"
            + " AND trial_plan_id IS NOT NULL)"
    )

    /// Every head entry of a set of users. Binds: the user id set, twice.
    static let headsOf = StatementText(perDialect: {
        "SELECT \(BillingRows.planSelectList) FROM kindred_billing_plans WHERE id IN ("
            + "SELECT plan_id FROM kindred_billing_heads WHERE user_id \(idSetTest($0))"
            + " UNION SELECT trial_plan_id FROM kindred_billing_heads WHERE user_id \(idSetTest($0)) AND trial_plan_id IS NOT NULL)"
    })

    /// A lineage's latest entry up to a transfer's time, leaving out the `transfer_out` that
    /// transfer wrote. Binds: user id, provider, lineage, event time, transfer event id.
    static let latestBeforeTransfer = StatementText(perDialect: {
        "SELECT \(BillingRows.planSelectList) FROM kindred_billing_plans p"
            + " WHERE p.user_id = ? AND p.provider = ? AND p.lineage = ? AND p.event_time <= ?"
            + " AND NOT (p.kind = 'transfer_out' AND p.event_id = ?)"
            + " ORDER BY \(BillingSchema.latestOrder(dialect: $0)) LIMIT 1"
    })

    /// Fills `kindred_billing_heads` from the whole history (migration `0008b_billing_heads`).
    static let populateHeads = StatementText(perDialect: { dialect in
        let head = "SELECT p.id FROM kindred_billing_plans p"
            + " WHERE p.user_id = g.user_id AND p.provider = g.provider AND p.lineage = g.lineage AND p.sandbox = g.sandbox"
        let order = " ORDER BY \(BillingSchema.latestOrder(dialect: dialect)) LIMIT 1"
        return "INSERT INTO kindred_billing_heads (user_id, provider, lineage, sandbox, plan_id, trial_plan_id)"
            + " SELECT g.user_id, g.provider, g.lineage, g.sandbox, (\(head)\(order)), (\(head) AND p.kind = 'trial'\(order))"
            + " FROM (SELECT DISTINCT user_id, provider, lineage, sandbox FROM kindred_billing_plans) g"
    })

    // MARK: Inbox lanes

    /// Which of a provider's events are recorded already. Binds: provider, the event id set.
    static let recordedEvents = StatementText(perDialect: {
        "SELECT event_id FROM kindred_billing_events WHERE provider = ? AND event_id \(idSetTest($0))"
    })

    /// A set of users and their apps, locked in id order until the transaction ends. Binds: the
    /// user id set.
    static let lockUsers = StatementText(perDialect: {
        "SELECT id, app FROM kindred_users WHERE id \(idSetTest($0)) ORDER BY id\($0.rowLockClause)"
    })

    /// Which of a set of ids are sources of remembered transfers. Binds: the id set.
    static let transferSources = StatementText(perDialect: {
        "SELECT DISTINCT from_id FROM kindred_billing_transfers WHERE from_id \(idSetTest($0))"
    })

    /// Inserts a lane's event records, one array per column (PostgreSQL's `unnest`). Binds:
    /// provider, event id, type, user id ('' for none), outcome, event time, applied at.
    static let insertEventSets = StatementText(
        "INSERT INTO kindred_billing_events (provider, event_id, type, user_id, outcome, event_time, applied_at)"
            + " SELECT provider, event_id, type, NULLIF(user_id, ''), outcome, event_time, applied_at FROM unnest(?, ?, ?, ?, ?, ?, ?)"
            + " AS t(provider, event_id, type, user_id, outcome, event_time, applied_at)"
    )

    /// Inserts one event record. Binds: provider, event id, type, user id, outcome, event time, applied at.
    static let insertEvent = StatementText(
        "INSERT INTO kindred_billing_events (provider, event_id, type, user_id, outcome, event_time, applied_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)"
    )

    /// Inserts a lane's plan entries, one array per column of `BillingRows.planColumns` and
    /// `updated_at` (PostgreSQL's `unnest`).
    static let insertPlanSets = StatementText(
        "INSERT INTO kindred_billing_plans (\(BillingRows.planSelectList), updated_at) SELECT * FROM unnest("
            + Array(repeating: "?", count: BillingRows.planColumns.count + 1).joined(separator: ", ") + ")"
    )

    /// Writes a lane's lineage heads, one array per column (PostgreSQL's `unnest`). Binds: user
    /// id, provider, lineage, sandbox, plan id, trial plan id ('' for none).
    static let upsertHeadSets = StatementText(
        "INSERT INTO kindred_billing_heads (user_id, provider, lineage, sandbox, plan_id, trial_plan_id)"
            + " SELECT user_id, provider, lineage, sandbox, plan_id, NULLIF(trial_plan_id, '') FROM unnest(?, ?, ?, ?, ?, ?)"
            + " AS t(user_id, provider, lineage, sandbox, plan_id, trial_plan_id)"
            + " ON CONFLICT (user_id, provider, lineage, sandbox) DO UPDATE SET plan_id = excluded.plan_id, trial_plan_id = excluded.trial_plan_id"
    )
}
