import KindredServerCore
import Foundation
import KindredStore
import SQLKit

/// The durable webhook inbox: every verified provider event is written to the platform's work
/// queue (queue `billing.webhooks`, idempotency key `<provider>:<event id>`) before the webhook
/// answers 200, and applied from there by `BillingApplier` — retried with backoff,
/// dead-lettered after the last attempt, re-driven by an operator.
public enum BillingInbox {
    /// The queue's name.
    public static let queue = "billing.webhooks"

    /// What an inbox item holds: the provider, its event id and the raw verified body.
    struct Envelope: Codable, Sendable, Equatable {
        /// The provider.
        var provider: BillingProvider
        /// The provider's event id.
        var eventID: String
        /// The event's type (for operators reading dead letters).
        var type: String
        /// The raw body, as verified.
        var body: String
        /// When it was received (ms since 1970).
        var receivedAt: Int64
    }

    /// What accepting an event did.
    enum Accepted: Sendable, Equatable {
        /// Written to the inbox.
        case enqueued
        /// Already in the inbox (or recently applied): a provider retry.
        case duplicate
    }

    /// Writes an event to the inbox in its own transaction (committed before this returns) and
    /// wakes this process's workers.
    static func accept(_ envelope: Envelope, queue: WorkQueue) async throws -> Accepted {
        let payload = envelope.jsonText
        let result = try await queue.enqueue(
            queue: Self.queue, payload: payload, dedupeKey: "\(envelope.provider.rawValue):\(envelope.eventID)"
        )
        return result == .duplicate ? .duplicate : .enqueued
    }

    /// The queue handler: applies each item exactly once (the applier records the event id in
    /// the transaction of its effect); a failure throws, so the queue retries or dead-letters.
    /// Claimed items are applied in lanes of `inboxBatchSize`, one transaction per lane with a
    /// savepoint per event, each lane completing its items in its transaction; a lane whose
    /// transaction fails is applied again one event per transaction.
    static func handler(applier: BillingApplier, settings: BillingSettings) -> QueueHandler {
        let batch = QueueBatchHandler(laneSize: settings.inboxBatchSize, partition: BillingApplier.partitionKey(of:)) { items in
            try await applier.apply(batch: items)
        }
        return QueueHandler(
            queue: queue, policy: settings.inboxPolicy, lease: settings.inboxLease, concurrency: settings.inboxConcurrency,
            batch: batch
        ) { item in
            let envelope: Envelope
            do {
                envelope = try item.decode(Envelope.self)
            } catch {
                throw BillingApplyError.unreadableItem("\(error)")
            }
            _ = try await applier.apply(envelope)
        }
    }
}
