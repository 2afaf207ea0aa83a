import KindredServerCore
import Foundation
import KindredStore
import SQLKit

extension BillingApplier {
    /// Applies a lane of inbox items in one transaction: each event recorded and written in
    /// turn (no savepoints: an event that cannot be applied for a reason found before it writes
    /// anything, such as an unknown user, is reported and skipped; any other failure fails the
    /// whole transaction), then each touched user recomputed once (publishing its entitlements
    /// once if they changed), then the applied and duplicate items completed in that
    /// transaction, so each completion commits with its effect. The lane's statements run on a
    /// `BillingLaneSQL` that first reads, in four statements, which events were recorded already,
    /// the users the events name (locking them), all their lineage heads and their transfers, and
    /// defers the events' records, entries and heads to a few set statements: a lane of plain
    /// renewals costs about a dozen statements, whatever its size. Items
    /// that cannot be decoded fail without touching the database.
    /// - Returns: the failed items' errors by item id (the queue retries or dead-letters them).
    /// - Throws: when the transaction itself fails: nothing was committed, and the queue applies
    ///   the items one transaction each instead (which isolates an event that fails in the database).
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
        let skipped = try await realtime.transaction { transaction in
            let sql = BillingLaneSQL(base: transaction.sql)
            try await sql.prefetch(
                events.flatMap { Self.namedIDs(of: $0.event) }, events: events.map { ($0.envelope.provider, $0.envelope.eventID) }
            )
            var skipped: [String: String] = [:]
            var done: [QueueItem] = []
            var touched: [String: AppID] = [:]
            for event in events {
                do {
                    let (_, effect) = try await write(event.envelope, decoded: event.event, now: now, on: sql)
                    touched.merge(effect?.touched ?? [:]) { _, latest in latest }
                    done.append(event.item)
                } catch let error as BillingApplyError {
                    // Thrown while interpreting the event, before its record or any effect was
                    // written: the transaction is intact and the event is retried later.
                    skipped[event.item.id] = String(describing: error)
                }
            }
            // The deferred records, entries and heads, then each touched user once, after all of
            // the lane's events: one recomputation and at most one realtime event per user (the
            // latest entitlements) for the lane.
            try await sql.flush()
            _ = try await recompute(touched, appended: [:], now: now, on: transaction)
            try await WorkQueue.complete(done, on: sql)
            return skipped
        }
        return failures.merging(skipped) { first, _ in first }
    }

    /// The user and provider ids an event names (what a lane prefetches for it).
    static func namedIDs(of event: DecodedEvent) -> [String] {
        if let event = event.revenueCat { return event.candidateUserIDs }
        return [event.stripe?.data.object.namedUserID].compactMap { $0 }
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
