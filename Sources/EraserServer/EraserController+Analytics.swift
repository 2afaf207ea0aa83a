import EraserAPI
import Foundation
import KindredServerCore
import KindredStore
import SQLKit

extension EraserController {
    /// Checks a batch whole, then stores its events without anything that points at the caller.
    /// - Returns: how many events were stored.
    /// - Throws: 400 `invalid_analytics_event` naming the index and field; 429 `rate_limited`.
    func record(_ user: AuthenticatedUser, _ batch: Components.Schemas.ExEraserAnalyticsBatch) async throws -> Int {
        let now = clock.now()
        let events = try AnalyticsEventRules.check(batch.events, now: now)
        let key = "exeraser-analytics:user:\(user.id)"
        if case .retryAfter(let seconds) = try await rateLimiter.check(
            key: key, limit: settings.analyticsBatchesPerUserPerHour, window: .seconds(3600)
        ) {
            throw KindredError.rateLimited(retryAfterSeconds: seconds)
        }
        try await database.transaction { sql in
            // One statement for the batch; rows get random ids so their order says nothing either.
            let insert = sql.insert(into: "exeraser_analytics_events").columns("id", "event", "properties", "occurred_hour")
            for event in events {
                insert.values(SQLBind(RandomID.make()), SQLBind(event.name), SQLBind(event.properties), SQLBind(event.hour))
            }
            try await insert.run()
        }
        return events.count
    }

    /// Deletes up to `limit` events that happened before `cutoff` (the retention job's page).
    static func deleteEvents(before cutoff: Date, limit: Int, database: Database) async throws -> Int {
        let hour = Int64(cutoff.timeIntervalSince1970)
        return try await database.transaction { sql in
            let ids = try await sql.select().column("id").from("exeraser_analytics_events")
                .where("occurred_hour", .lessThan, hour).limit(limit).all()
                .map { try $0.decode(column: "id", as: String.self) }
            guard !ids.isEmpty else { return 0 }
            try await sql.delete(from: "exeraser_analytics_events").where("id", .in, ids).run()
            return ids.count
        }
    }
}
