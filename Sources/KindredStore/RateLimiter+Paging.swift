import SQLKit

extension RateLimiter {
    /// Deletes at most `limit` keys' worth of events older than `maxWindow`, and at most `limit`
    /// keys not seen within it: one bounded page of `pruneExpired(maxWindow:)` for a paging job.
    /// - Returns: how many events and keys were deleted (0 when nothing is left to prune).
    /// - Throws: `invalidRateLimit`, `queryFailed`.
    public func pruneExpiredPage(maxWindow: Duration, limit: Int) async throws(KindredStoreError) -> Int {
        let windowMS = maxWindow.milliseconds
        guard windowMS >= 1, limit >= 1 else { throw .invalidRateLimit("the window and the page size must be positive") }
        let cutoff = clock.now().millisecondsSince1970 - windowMS
        do {
            return try await database.transaction { session in
                let eventKeys = try await session.select().distinct().column("key").from("kindred_rate_limit_events")
                    .where("occurred_at", .lessThanOrEqual, cutoff).limit(limit).all()
                    .map { try $0.decode(column: "key", as: String.self) }
                var deleted = 0
                if !eventKeys.isEmpty {
                    deleted += try await session.delete(from: "kindred_rate_limit_events")
                        .where("key", .in, eventKeys).where("occurred_at", .lessThanOrEqual, cutoff)
                        .returning("key").all().count
                }
                let staleKeys = try await session.select().column("key").from("kindred_rate_limit_keys")
                    .where("last_seen_at", .lessThanOrEqual, cutoff).limit(limit).all()
                    .map { try $0.decode(column: "key", as: String.self) }
                if !staleKeys.isEmpty {
                    try await session.delete(from: "kindred_rate_limit_keys").where("key", .in, staleKeys).run()
                    deleted += staleKeys.count
                }
                return deleted
            }
        } catch {
            throw .queryFailed("rate limit pruning: \(Database.describe(error))")
        }
    }
}
