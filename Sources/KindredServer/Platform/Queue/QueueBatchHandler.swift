import Foundation

/// How a queue's claimed items are handled a batch at a time: each batch in one database
/// transaction that also completes its items, so the effects and the completions commit together
/// and the per-transaction and per-statement costs are shared by the batch.
///
/// A claim is split into lanes of at most `laneSize` items by `partition` (items with one key are
/// in one lane, in claim order); lanes run concurrently, one transaction each. When a lane's
/// transaction fails as a whole (`handle` throws), nothing of it was committed, and the worker
/// delivers its items one by one through the queue's single-item handler instead.
public struct QueueBatchHandler: Sendable {
    /// The most items in one lane (one transaction).
    public var laneSize: Int
    /// The key that keeps related items in one lane (e.g. the user an event is about).
    public var partition: @Sendable (QueueItem) -> String
    /// Handles one lane in one transaction: completes the items it handled (with
    /// `WorkQueue.complete(_:on:)`, inside that transaction) and returns the others' errors by
    /// item id; the worker records those as failed attempts. Throwing means nothing committed.
    public var handle: @Sendable ([QueueItem]) async throws -> [String: String]

    /// Creates a batch handler.
    public init(
        laneSize: Int, partition: @escaping @Sendable (QueueItem) -> String,
        handle: @escaping @Sendable ([QueueItem]) async throws -> [String: String]
    ) {
        self.laneSize = max(1, laneSize)
        self.partition = partition
        self.handle = handle
    }

    /// Splits claimed items into lanes: as few lanes as `laneSize` allows, items with one
    /// partition key in the same lane, each lane in claim order.
    func lanes(of items: [QueueItem]) -> [[QueueItem]] {
        let count = (items.count + laneSize - 1) / laneSize
        guard count > 1 else { return items.isEmpty ? [] : [items] }
        var lanes = Array(repeating: [QueueItem](), count: count)
        for item in items {
            var hasher = Hasher()
            hasher.combine(partition(item))
            lanes[Int(UInt(bitPattern: hasher.finalize()) % UInt(count))].append(item)
        }
        return lanes.filter { !$0.isEmpty }
    }
}
