import Foundation

/// An item a worker has claimed; hand it back with `WorkQueue.complete` or `WorkQueue.fail`.
public struct QueueItem: Sendable, Equatable {
    /// The item's id.
    public var id: String
    /// The queue it belongs to.
    public var queue: String
    /// The payload as enqueued (usually JSON).
    public var payload: String
    /// The idempotency key it was enqueued with, if any.
    public var dedupeKey: String?
    /// Which attempt this is (1 on the first delivery).
    public var attempt: Int
    /// When it was enqueued.
    public var createdAt: Date
    /// The claim's lease end: after it, another worker may claim the item again.
    public var leaseUntil: Date
    /// Identifies this claim, so a worker whose lease expired cannot complete a newer claim.
    public var claimToken: String

    /// Decodes the payload as JSON.
    /// - Throws: `DecodingError` when it is not `T`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(payload.utf8))
    }
}

/// An item that failed every attempt.
public struct DeadLetter: Sendable, Equatable, Codable {
    /// The item's id (kept when re-driven).
    public var id: String
    /// The queue it belonged to.
    public var queue: String
    /// The payload.
    public var payload: String
    /// Its idempotency key, if any.
    public var dedupeKey: String?
    /// Attempts made.
    public var attempts: Int
    /// The last attempt's error.
    public var lastError: String
    /// When it was first enqueued.
    public var createdAt: Date
    /// When it was dead-lettered.
    public var failedAt: Date
}

/// What `enqueue` did.
public enum EnqueueResult: Sendable, Equatable {
    /// A new item with this id.
    case enqueued(id: String)
    /// The queue already had (or recently finished) an item with this idempotency key.
    case duplicate
}

/// Why a queue operation was refused.
public enum QueueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A queue name that is empty, too long or outside `a-z 0-9 . _ -`.
    case invalidQueueName(String)
    /// An idempotency key that is empty or longer than 200 bytes.
    case invalidDedupeKey
    /// Two handlers registered for one queue.
    case duplicateHandler(String)
    /// No dead letter with this id.
    case unknownDeadLetter(String)
    /// The payload could not be encoded as JSON.
    case unencodablePayload(String)

    /// A one-line description.
    public var description: String {
        switch self {
        case .invalidQueueName(let name): "invalid queue name \"\(name)\": use 1–100 of a-z 0-9 . _ -"
        case .invalidDedupeKey: "an idempotency key must be 1 to 200 bytes"
        case .duplicateHandler(let queue): "a handler for queue \(queue) is already registered"
        case .unknownDeadLetter(let id): "no dead letter \(id)"
        case .unencodablePayload(let why): "the payload cannot be encoded as JSON: \(why)"
        }
    }
}
