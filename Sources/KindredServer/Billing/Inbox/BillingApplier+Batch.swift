import Foundation
import KindredStore
import SQLKit

extension BillingApplier {
    /// Applies a lane of inbox items in one transaction: each event recorded and written in a
    /// savepoint of its own (a failing event is rolled back alone and reported; the others
    /// apply), then each touched user recomputed once (publishing its entitlements once if they
    /// changed), then the applied and duplicate items completed in that transaction, so each
    /// completion commits with its effect. Items that cannot be decoded fail without touching
    /// the database.
    /// - Returns: the failed items' errors by item id (the queue retries or dead-letters them).
    /// - Throws: when the transaction itself fails: nothing was committed, and the queue applies
    ///   the items one transaction each instead.
    func apply(batch items: [QueueItem]) async throws -> [String: String] {
        var failures: [String: String] = [:]
        var decoded: [(item: QueueItem, envelope: BillingInbox.Envelope, event: DecodedEvent)] = []
        for item in items {
            do {
                let envelope = try item.decode(BillingInbox.Envelope.self)
                decoded.append((item, envelope, try Self.decode(envelope)))
            } catch {
                failures[item.id] = String(describing: BillingApplyError.unreadableItem("\(error)"))
            }
        }
        guard !decoded.isEmpty else { return failures }
        let now = clock.now()
        let events = decoded
        let rolledBack = try await realtime.transaction { transaction in
            let sql = transaction.sql
            var rolledBack: [String: String] = [:]
            var done: [QueueItem] = []
            var touched: [String: AppID] = [:]
            for event in events {
                try await sql.raw("SAVEPOINT kindred_inbox_item").run()
                do {
                    let (_, effect) = try await write(event.envelope, decoded: event.event, now: now, on: sql)
                    try await sql.raw("RELEASE SAVEPOINT kindred_inbox_item").run()
                    touched.merge(effect?.touched ?? [:]) { _, latest in latest }
                    done.append(event.item)
                } catch {
                    try await sql.raw("ROLLBACK TO SAVEPOINT kindred_inbox_item").run()
                    try await sql.raw("RELEASE SAVEPOINT kindred_inbox_item").run()
                    rolledBack[event.item.id] = String(describing: error)
                }
            }
            // Each touched user once, after all of the lane's events: one recomputation and at
            // most one realtime event per user (the latest entitlements) for the lane.
            _ = try await recompute(touched, appended: [:], now: now, on: transaction)
            try await WorkQueue.complete(done, on: sql)
            return rolledBack
        }
        return failures.merging(rolledBack) { first, _ in first }
    }

    /// The key that keeps one user's events in one lane: RevenueCat's app user id, Stripe's
    /// customer (the item id when neither can be read, e.g. an unreadable item).
    static func partitionKey(of item: QueueItem) -> String {
        guard let envelope = try? item.decode(BillingInbox.Envelope.self), let event = try? decode(envelope) else {
            return item.id
        }
        if let event = event.revenueCat {
            return event.appUserID ?? event.originalAppUserID ?? item.id
        }
        return event.stripe?.data.object.customer?.id ?? item.id
    }
}
