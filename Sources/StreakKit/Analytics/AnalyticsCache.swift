import Foundation

/// What analytics depend on in a store's results: how many there are and the latest recording time.
/// Recording, importing or deleting a result changes it, so a cached figure keyed by it is current.
public struct AnalyticsFingerprint: Hashable, Sendable, Codable {
    /// The number of results.
    public let count: Int
    /// The latest `recordedAt`, nil when there is no result.
    public let lastRecordedAt: Date?

    /// A fingerprint from its parts (a store can count without loading every result).
    public init(count: Int, lastRecordedAt: Date?) {
        self.count = count
        self.lastRecordedAt = lastRecordedAt
    }

    /// The fingerprint of `results`.
    public init(of results: [GameResult]) {
        self.init(count: results.count, lastRecordedAt: results.lazy.map(\.recordedAt).max())
    }
}

/// Computed analytics kept while the results they came from are unchanged.
///
/// Values are stored per `Key` (the question asked: range, game, today's day…) under one fingerprint;
/// when a lookup brings another fingerprint every stored value is dropped and the asked one is
/// recomputed. A value type: the owner (one per profile) keeps it, no shared state.
public struct AnalyticsCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The fingerprint the stored values belong to.
    public private(set) var fingerprint: AnalyticsFingerprint?
    /// How many times a value was computed rather than served from the cache.
    public private(set) var computations = 0
    private var values: [Key: Value] = [:]

    /// An empty cache.
    public init() {}

    /// The value for `key` under `fingerprint`: the stored one when the fingerprint is unchanged,
    /// else `compute()`'s result, stored.
    public mutating func value(for key: Key, fingerprint: AnalyticsFingerprint, compute: () throws -> Value) rethrows -> Value {
        if fingerprint != self.fingerprint {
            values.removeAll()
            self.fingerprint = fingerprint
        }
        if let value = values[key] { return value }
        let value = try compute()
        computations += 1
        values[key] = value
        return value
    }
}
