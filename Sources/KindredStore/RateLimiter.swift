import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// A rolling-window rate limit kept in the database, so every server replica shares it.
///
/// `check(key:limit:window:)` admits at most `limit` events per `key` in any `window`: an
/// admitted event is recorded; a refused one is not, and the answer says how many whole
/// seconds until the oldest event in the window expires. A limiter remembers the refusals it
/// gave until they end and answers repeats without the database; `reset(key:)` on this limiter
/// forgets them (a reset made through another limiter or replica shows here when the remembered
/// refusal ends, at most its retry-after later).
public struct RateLimiter: Sendable {
    /// The answer of a check.
    public enum Decision: Sendable, Equatable {
        /// The event is admitted and recorded.
        case allowed
        /// The limit is reached; retry after this many seconds (at least 1).
        case retryAfter(seconds: Int)
    }

    let database: Database
    let clock: any WallClock
    /// The refusals this limiter gave, until they end (see `check`).
    private let refusals = RefusalCache()

    /// Creates a rate limiter.
    /// - Parameters:
    ///   - database: where the events are kept (needs `RateLimiter.migration` applied).
    ///   - clock: the time events are stamped and windows measured with.
    public init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Admits or refuses one event for `key`.
    /// - Parameters:
    ///   - key: what is limited, e.g. `invite-accept:<user id>`; up to 200 bytes.
    ///   - limit: the most events admitted per window (≥ 1).
    ///   - window: the length of the rolling window (≥ 1 ms).
    /// - Returns: `.allowed`, or `.retryAfter(seconds:)`.
    /// - Throws: `invalidRateLimit` for bad arguments, `queryFailed` when the database fails.
    public func check(key: String, limit: Int, window: Duration) async throws(KindredStoreError) -> Decision {
        let windowMS = try Self.validate(key: key, limit: limit, window: window)
        let now = clock.now().millisecondsSince1970
        // Fast path: a refusal records nothing, and events are only added or expire, so a key
        // refused until T stays refused until T — the database would give the same answer. Under a
        // flood from one address this keeps ~6,500 refusals a second off SQLite's one writer
        // (`scripts/bench-login-flood`, docs/benchmarks.md); `RateLimiterRefusalCacheTests`
        // compares it with the database's answer at pinned times.
        if let until = refusals.refusedUntil(key: key, limit: limit, windowMS: windowMS, now: now) {
            return .retryAfter(seconds: Int((until - now + 999) / 1000))
        }
        let windowStart = now - windowMS
        let refusals = refusals
        do {
            return try await database.transaction { session in
                // Upserting the key row first takes its row lock (PostgreSQL) or the write lock
                // (SQLite), so concurrent checks of one key are serialized and cannot overshoot.
                try await session.insert(into: "kindred_rate_limit_keys")
                    .columns("key", "last_seen_at").values(SQLBind(key), SQLBind(now))
                    .onConflict(with: ["key"]) { $0.set(excludedValueOf: "last_seen_at") }
                    .run()
                try await session.delete(from: "kindred_rate_limit_events")
                    .where("key", .equal, key).where("occurred_at", .lessThanOrEqual, windowStart)
                    .run()
                let inWindow = try await session.select()
                    .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                    .column(SQLFunction("MIN", args: SQLIdentifier("occurred_at")), as: "oldest")
                    .from("kindred_rate_limit_events").where("key", .equal, key)
                    .first()
                let count = try inWindow?.decode(column: "n", as: Int.self) ?? 0
                if count < limit {
                    try await session.insert(into: "kindred_rate_limit_events")
                        .columns("key", "occurred_at").values(SQLBind(key), SQLBind(now))
                        .run()
                    return .allowed
                }
                let oldest = try inWindow?.decode(column: "oldest", as: Int64?.self) ?? now
                let waitMS = max(1, oldest + windowMS - now)
                refusals.remember(key: key, limit: limit, windowMS: windowMS, until: now + waitMS, now: now)
                return .retryAfter(seconds: Int((waitMS + 999) / 1000))
            }
        } catch let error as KindredStoreError {
            throw error
        } catch {
            throw .queryFailed("rate limit check: \(Database.describe(error))")
        }
    }

    /// Whether `key` is at its limit, without recording anything: for limits that count only
    /// some outcomes (failed logins), checked before the attempt and `record`ed after a failure.
    /// - Returns: `.allowed` when fewer than `limit` events are in the window, else `.retryAfter`.
    /// - Throws: `invalidRateLimit`, `queryFailed`.
    public func peek(key: String, limit: Int, window: Duration) async throws(KindredStoreError) -> Decision {
        let windowMS = try Self.validate(key: key, limit: limit, window: window)
        let now = clock.now().millisecondsSince1970
        do {
            let rows = try await database.sql.select().column("occurred_at")
                .from("kindred_rate_limit_events")
                .where("key", .equal, key).where("occurred_at", .greaterThan, now - windowMS)
                .orderBy("occurred_at", .descending).limit(limit)
                .all()
            guard rows.count >= limit, let oldest = try rows.last?.decode(column: "occurred_at", as: Int64.self) else {
                return .allowed
            }
            let waitMS = max(1, oldest + windowMS - now)
            return .retryAfter(seconds: Int((waitMS + 999) / 1000))
        } catch {
            throw .queryFailed("rate limit peek: \(Database.describe(error))")
        }
    }

    /// Records one event for `key` unconditionally (after `peek` admitted the attempt).
    /// - Throws: `invalidRateLimit`, `queryFailed`.
    public func record(key: String) async throws(KindredStoreError) {
        _ = try Self.validate(key: key, limit: 1, window: .milliseconds(1))
        let now = clock.now().millisecondsSince1970
        do {
            try await database.transaction { session in
                try await session.insert(into: "kindred_rate_limit_keys")
                    .columns("key", "last_seen_at").values(SQLBind(key), SQLBind(now))
                    .onConflict(with: ["key"]) { $0.set(excludedValueOf: "last_seen_at") }
                    .run()
                try await session.insert(into: "kindred_rate_limit_events")
                    .columns("key", "occurred_at").values(SQLBind(key), SQLBind(now))
                    .run()
            }
        } catch {
            throw .queryFailed("rate limit record: \(Database.describe(error))")
        }
    }

    /// Forgets every event of `key` (a successful login clears its account's failures).
    /// - Throws: `invalidRateLimit`, `queryFailed`.
    public func reset(key: String) async throws(KindredStoreError) {
        _ = try Self.validate(key: key, limit: 1, window: .milliseconds(1))
        refusals.forget(key: key)
        do {
            try await database.sql.delete(from: "kindred_rate_limit_events").where("key", .equal, key).run()
        } catch {
            throw .queryFailed("rate limit reset: \(Database.describe(error))")
        }
    }

    /// Checks the arguments of a limit; returns the window in milliseconds.
    private static func validate(key: String, limit: Int, window: Duration) throws(KindredStoreError) -> Int64 {
        guard limit >= 1 else { throw .invalidRateLimit("limit must be at least 1, not \(limit)") }
        let windowMS = window.milliseconds
        guard windowMS >= 1 else { throw .invalidRateLimit("the window must be at least 1 ms") }
        guard !key.isEmpty, key.utf8.count <= 200 else {
            throw .invalidRateLimit("the key must be 1 to 200 bytes")
        }
        return windowMS
    }

    /// Deletes events older than `maxWindow` and keys not seen within it, for every key.
    /// Run it periodically with the longest window in use.
    /// - Returns: the number of events deleted.
    /// - Throws: `invalidRateLimit`, `queryFailed`.
    @discardableResult
    public func pruneExpired(maxWindow: Duration) async throws(KindredStoreError) -> Int {
        let windowMS = maxWindow.milliseconds
        guard windowMS >= 1 else { throw .invalidRateLimit("the window must be at least 1 ms") }
        let cutoff = clock.now().millisecondsSince1970 - windowMS
        do {
            return try await database.transaction { session in
                let expired = try await session.select()
                    .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                    .from("kindred_rate_limit_events").where("occurred_at", .lessThanOrEqual, cutoff)
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                try await session.delete(from: "kindred_rate_limit_events")
                    .where("occurred_at", .lessThanOrEqual, cutoff).run()
                try await session.delete(from: "kindred_rate_limit_keys")
                    .where("last_seen_at", .lessThanOrEqual, cutoff).run()
                return expired
            }
        } catch {
            throw .queryFailed("rate limit pruning: \(Database.describe(error))")
        }
    }

    /// Creates `kindred_rate_limit_keys` and `kindred_rate_limit_events`.
    public static let migration = Migration("0001_rate_limit_events") { sql in
        try await sql.create(table: "kindred_rate_limit_keys")
            .column("key", type: .text, .primaryKey(autoIncrement: false))
            .column("last_seen_at", type: .bigint, .notNull)
            .run()
        try await sql.create(table: "kindred_rate_limit_events")
            .column("key", type: .text, .notNull)
            .column("occurred_at", type: .bigint, .notNull)
            .run()
        try await sql.create(index: "kindred_rate_limit_events_key_time")
            .on("kindred_rate_limit_events").column("key").column("occurred_at")
            .run()
    }
}

/// Refusals a `RateLimiter` gave, by key, until they end; at most `capacity` keys (expired ones
/// are dropped first; past that a refusal is simply not remembered).
final class RefusalCache: Sendable {
    private struct Entry {
        var limit: Int
        var windowMS: Int64
        var until: Int64
    }

    static let capacity = 10_000
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    /// When `key`'s remembered refusal under this limit ends, if it has not ended at `now`.
    func refusedUntil(key: String, limit: Int, windowMS: Int64, now: Int64) -> Int64? {
        entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.until > now else {
                entries[key] = nil
                return nil
            }
            return entry.limit == limit && entry.windowMS == windowMS ? entry.until : nil
        }
    }

    /// Remembers that `key` is refused under this limit until `until`.
    func remember(key: String, limit: Int, windowMS: Int64, until: Int64, now: Int64) {
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity, entries[key] == nil {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= Self.capacity { return }
            }
            entries[key] = Entry(limit: limit, windowMS: windowMS, until: until)
        }
    }

    /// Forgets `key`'s refusal.
    func forget(key: String) {
        _ = entries.withLockedValue { $0.removeValue(forKey: key) }
    }
}

