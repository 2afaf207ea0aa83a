import KindredStore
import SQLKit

/// Reserves attempts under failure limits *before* the expensive check they guard (an Argon2id
/// verification), so that concurrent attempts cannot all pass a check made before any of them
/// is counted.
///
/// An attempt is counted as a failure up front with `RateLimiter.check` (atomic per key: it
/// takes the key's row lock, counts and records in one transaction); a failed attempt keeps
/// its reservation, a successful one gives it back (`release`) or clears the key (`reset`).
/// The events are `RateLimiter`'s, so `peek`, `check` and pruning see the reservations.
package struct AttemptReservations: Sendable {
    /// One limit an attempt counts against.
    package struct Limit: Sendable, Equatable {
        /// The rate-limit key (e.g. `login-failures:<app>:<e-mail hash>`).
        package var key: String
        /// The most attempts per window.
        package var limit: Int

        /// A limit of `limit` attempts on `key`.
        package init(key: String, limit: Int) {
            self.key = key
            self.limit = limit
        }
    }

    let rateLimiter: RateLimiter
    let database: Database
    /// The rolling window every limit is counted over.
    package let window: Duration

    /// Reservations over `window` in `database`'s rate-limit events.
    package init(database: Database, clock: any WallClock, window: Duration) {
        rateLimiter = RateLimiter(database: database, clock: clock)
        self.database = database
        self.window = window
    }

    /// Reserves one attempt under every limit, in order, or under none.
    /// - Returns: nil when reserved everywhere; else the seconds until the first full limit
    ///   admits again (the reservations already taken are given back).
    /// - Throws: `KindredStoreError` when the database fails (reservations taken are given back).
    package func reserve(_ limits: [Limit]) async throws -> Int? {
        var taken: [String] = []
        do {
            for limit in limits {
                let decision = try await rateLimiter.check(key: limit.key, limit: limit.limit, window: window)
                if case .retryAfter(let seconds) = decision {
                    for key in taken { try await release(key: key) }
                    return seconds
                }
                taken.append(limit.key)
            }
        } catch {
            for key in taken { try? await release(key: key) }
            throw error
        }
        return nil
    }

    /// Gives back one reservation of `key`: deletes its newest event (reservations carry no
    /// identity, and which of the key's events is removed does not change any later count
    /// more than by that one event).
    /// - Throws: `KindredStoreError.queryFailed` when the database fails.
    package func release(key: String) async throws {
        do {
            try await database.transaction { sql in
                // As `RateLimiter.check` does, lock the key's row first so a concurrent
                // reservation of the key waits for this release.
                try await sql.update("kindred_rate_limit_keys").set("key", to: SQLBind(key))
                    .where("key", .equal, key).run()
                guard let newest = try await sql.select()
                    .column(SQLFunction("MAX", args: SQLIdentifier("occurred_at")), as: "newest")
                    .from("kindred_rate_limit_events").where("key", .equal, key)
                    .first()?.decode(column: "newest", as: Int64?.self)
                else { return }
                let atNewest = try await sql.select()
                    .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                    .from("kindred_rate_limit_events").where("key", .equal, key).where("occurred_at", .equal, newest)
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                try await sql.delete(from: "kindred_rate_limit_events")
                    .where("key", .equal, key).where("occurred_at", .equal, newest).run()
                for _ in 0..<max(0, atNewest - 1) {
                    try await sql.insert(into: "kindred_rate_limit_events")
                        .columns("key", "occurred_at").values(SQLBind(key), SQLBind(newest)).run()
                }
            }
        } catch {
            throw KindredStoreError.queryFailed("rate limit release: \(String(describing: error))")
        }
    }

    /// Forgets every event of `key` (a right password clears its account's failures).
    /// - Throws: `KindredStoreError` when the database fails.
    package func reset(key: String) async throws {
        try await rateLimiter.reset(key: key)
    }
}
