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
    /// partition key in the same lane. Each lane is ordered by key (claim order within a key), so
    /// concurrent lanes that lock per-key rows (e.g. users) take those locks in one order and
    /// cannot deadlock on them.
    package func lanes(of items: [QueueItem]) -> [[QueueItem]] {
        guard !items.isEmpty else { return [] }
        let count = (items.count + laneSize - 1) / laneSize
        var lanes = Array(repeating: [(key: String, item: QueueItem)](), count: count)
        for item in items {
            let key = partition(item)
            var hasher = Hasher()
            hasher.combine(key)
            lanes[count == 1 ? 0 : Int(UInt(bitPattern: hasher.finalize()) % UInt(count))].append((key, item))
        }
        return lanes.filter { !$0.isEmpty }.map { lane in
            lane.enumerated()
                .sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
                .map(\.element.item)
        }
    }
}
