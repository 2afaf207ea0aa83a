import KindredServerCore
import Foundation
import KindredStore
import SQLKit

/// A backfill's progress report: items done and the total.
public typealias BackfillProgress = @Sendable (_ done: Int, _ total: Int) -> Void

extension BillingAdministration {
    /// What a backfill found (and, unless it was a dry run, wrote).
    public struct BackfillReport: Sendable, Equatable {
        /// One change, as shown to the operator before it is written.
        public struct Change: Sendable, Equatable {
            /// The user.
            public var userID: String
            /// What changes (e.g. `username: nil → "tester32"`, `+ renewal sub_1 until 1733533200`).
            public var summary: String
        }

        /// Whether nothing was written.
        public var dryRun: Bool
        /// Records (or customers) examined.
        public var examined: Int
        /// The changes found.
        public var changes: [Change]
        /// Users whose provider could not be read (the backfill skipped them).
        public var failures: [String]
    }

    /// Backfill User Fields: copies each user's display name and e-mail into the subscriptions
    /// table where the app allows denormalised search fields, and clears them where it does not
    /// (Ex-Eraser). With `dryRun`, reports the changes without writing.
    /// - Parameter progress: called after each page with the records examined and the total.
    public func backfillUserFields(dryRun: Bool, progress: BackfillProgress? = nil) async throws -> BackfillReport {
        let sql = database.sql
        var report = BackfillReport(dryRun: dryRun, examined: 0, changes: [], failures: [])
        let total = try await database.longRead { sql in
            try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("kindred_billing_subscriptions").first()?.decode(column: "n", as: Int.self) ?? 0
        }
        var after: String?
        while true {
            var select = sql.select().columns(SubscriptionRecord.columns)
                .from("kindred_billing_subscriptions").orderBy("user_id").limit(500)
            if let after { select = select.where("user_id", .greaterThan, after) }
            let records = try await select.all().map(SubscriptionRecord.init(row:))
            guard let last = records.last else { break }
            after = last.userID
            for record in records {
                report.examined += 1
                let allowed = settings.app(record.app).denormalizeUserFields
                let (name, email) = allowed ? try await BillingLedger.userFields(userID: record.userID, on: sql) : (nil, nil)
                guard name != record.username || email != record.email else { continue }
                report.changes.append(
                    .init(
                        userID: record.userID,
                        summary: "username: \(Self.show(record.username)) → \(Self.show(name)); email: \(Self.show(record.email)) → \(Self.show(email))"
                    )
                )
                guard !dryRun else { continue }
                try await sql.update("kindred_billing_subscriptions")
                    .set("username", to: SQLBind(name)).set("email", to: SQLBind(email))
                    .set("updated_at", to: clock.now().millisecondsSince1970)
                    .where("user_id", .equal, record.userID).run()
            }
            progress?(report.examined, max(total, report.examined))
        }
        return report
    }

    /// Backfill Expiration History: for every user with a Stripe customer (or only `userID`),
    /// reads the customer's paid invoices and appends each subscription period end the history
    /// lacks (kind `renewal`, provenance `backfill:stripe:<invoice id>`, event time = the period
    /// start, so old periods never outrank newer entries). With `dryRun`, reports without writing.
    /// - Parameter progress: called after each customer with the customers done and the total.
    public func backfillExpirationHistory(
        dryRun: Bool, userID: String? = nil, progress: BackfillProgress? = nil
    ) async throws -> BackfillReport {
        let sql = database.sql
        var select = sql.select().columns("external_id", "user_id").from("kindred_billing_links")
            .where("provider", .equal, BillingProvider.stripe.rawValue).orderBy("user_id").orderBy("external_id")
        if let userID { select = select.where("user_id", .equal, userID) }
        let customers = try await select.all().map {
            (try $0.decode(column: "external_id", as: String.self), try $0.decode(column: "user_id", as: String.self))
        }
        var report = BackfillReport(dryRun: dryRun, examined: customers.count, changes: [], failures: [])
        guard !customers.isEmpty else { return report }
        guard let stripe = sync.stripe else { throw BillingProviderError.notConfigured(.stripe) }
        let nowMs = clock.now().millisecondsSince1970
        for (index, (customer, user)) in customers.enumerated() {
            defer { progress?(index + 1, customers.count) }
            guard let app = try await BillingLedger.app(ofUser: user, on: sql) else { continue }
            let invoices: [StripeObject]
            do {
                invoices = try await stripe.invoices(customer: customer)
            } catch {
                report.failures.append(user)
                continue
            }
            let existing = try await BillingLedger.plans(of: user, on: sql)
            var seen = Set(existing.filter { $0.provider == .stripe }.map { "\($0.lineage)|\($0.expiration)" })
            var entries: [PlanEntry] = []
            for invoice in invoices where invoice.status == "paid" {
                guard let invoiceID = invoice.id, let subscription = invoice.invoiceSubscriptionID,
                    let line = invoice.lines?.data.filter({ $0.period?.end != nil }).max(by: { ($0.period?.end ?? 0) < ($1.period?.end ?? 0) }),
                    let end = line.period?.end,
                    // Times Stripe cannot send (after 9999) would overflow in milliseconds: skipped.
                    (0...StripeEvent.latestCreated).contains(end), (0...StripeEvent.latestCreated).contains(line.period?.start ?? end)
                else { continue }
                guard seen.insert("\(subscription)|\(end)").inserted else { continue }
                let productID = invoice.firstPriceID ?? "unknown"
                entries.append(
                    PlanEntry(
                        id: UUID().uuidString.lowercased(), userID: user, app: app,
                        planType: settings.app(app).planType(for: productID), productID: productID, platform: .web,
                        provider: .stripe, lineage: subscription, kind: .renewal, expiration: end,
                        eventTime: (line.period?.start ?? end) * 1000, eventID: "backfill:stripe:\(invoiceID)",
                        sandbox: invoice.livemode == false, createdAt: nowMs
                    )
                )
            }
            entries.sort { $0.eventTime < $1.eventTime }
            for entry in entries {
                report.changes.append(.init(userID: user, summary: "+ renewal \(entry.lineage) until \(entry.expiration) (\(entry.eventID))"))
            }
            guard !dryRun, !entries.isEmpty else { continue }
            try await write(history: entries, userID: user, app: app)
        }
        return report
    }

    /// Inserts backfilled history entries (each a distinct period, so the append rule's
    /// "same as the lineage's latest" check does not apply) and recomputes the user.
    private func write(history entries: [PlanEntry], userID: String, app: AppID) async throws {
        let now = clock.now()
        let applier = applier
        try await applier.realtime.transaction { transaction in
            try await BillingLedger.lock([userID], on: transaction.sql)
            for entry in entries {
                try await BillingLedger.insert(entry, on: transaction.sql)
            }
            var effect = BillingEffect(userID: userID, outcome: "backfill")
            effect.touched[userID] = app
            _ = try await applier.commit(effect, now: now, on: transaction)
        }
    }

    private static func show(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "nil" }
}
