import Foundation
import KindredServerCore
import KindredStore
import SQLKit

/// What operators read of Ex-Eraser's analytics (`kindred eraser analytics …`, the admin
/// console): counts per day and event, and the events in PostHog's batch format.
public enum EraserAnalyticsReport {
    /// How many events of one kind happened on one day (UTC).
    public struct DayCount: Sendable, Equatable, Codable {
        /// The day, `YYYY-MM-DD` (UTC).
        public var day: String
        /// The event's name.
        public var event: String
        /// How many.
        public var count: Int
    }

    /// The counts per UTC day and event for events that happened in `range`, by day then event.
    /// - Throws: when the database cannot be read.
    public static func counts(in range: DateInterval, database: Database) async throws -> [DayCount] {
        let rows = try await database.sql.select()
            .column("occurred_hour").column("event").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("exeraser_analytics_events")
            .where("occurred_hour", .greaterThanOrEqual, Int64(range.start.timeIntervalSince1970))
            .where("occurred_hour", .lessThan, Int64(range.end.timeIntervalSince1970))
            .groupBy("occurred_hour").groupBy("event")
            .all()
        var totals: [String: [String: Int]] = [:]
        for row in rows {
            let hour = try row.decode(column: "occurred_hour", as: Int64.self)
            let day = Self.utcDay(hour)
            totals[day, default: [:]][try row.decode(column: "event", as: String.self), default: 0] += try row.decode(column: "n", as: Int.self)
        }
        return totals.keys.sorted().flatMap { day in
            (totals[day] ?? [:]).keys.sorted().map { DayCount(day: day, event: $0, count: totals[day]?[$0] ?? 0) }
        }
    }

    /// The UTC day (`YYYY-MM-DD`) of `seconds` since 1970.
    public static func utcDay(_ seconds: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
    }

    /// Writes the events that happened in `range` as one PostHog batch request body
    /// (`{"api_key": …, "batch": [{"event", "timestamp", "properties"}]}`, the `/batch/` endpoint's
    /// format), page by page to `write`, so a year of events never sits in memory.
    ///
    /// PostHog needs a `distinct_id` per event: each event gets a fresh random one, and
    /// `$process_person_profile: false`, so PostHog builds no person from them either.
    /// - Returns: how many events were written.
    /// - Throws: when the database cannot be read, or what `write` throws.
    public static func writePostHogBatch(
        in range: DateInterval, apiKey: String, database: Database, pageSize: Int = 1_000,
        write: (String) throws -> Void
    ) async throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try write("{\"api_key\":\(String(decoding: try encoder.encode(apiKey), as: UTF8.self)),\"batch\":[")
        var after: (hour: Int64, id: String)?
        var written = 0
        while true {
            var query = database.sql.select().column("id").column("event").column("properties").column("occurred_hour")
                .from("exeraser_analytics_events")
                .where("occurred_hour", .greaterThanOrEqual, Int64(range.start.timeIntervalSince1970))
                .where("occurred_hour", .lessThan, Int64(range.end.timeIntervalSince1970))
            if let after {
                query = query.where {
                    $0.where("occurred_hour", .greaterThan, after.hour)
                        .orWhere { $0.where("occurred_hour", .equal, after.hour).where("id", .greaterThan, after.id) }
                }
            }
            let rows = try await query.orderBy("occurred_hour").orderBy("id").limit(pageSize).all()
            for row in rows {
                let hour = try row.decode(column: "occurred_hour", as: Int64.self)
                let id = try row.decode(column: "id", as: String.self)
                let stored = try row.decode(column: "properties", as: String.self)
                var properties = (try? JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: Any]) ?? [:]
                properties["distinct_id"] = UUID().uuidString.lowercased()
                properties["$process_person_profile"] = false
                let event: [String: Any] = [
                    "event": try row.decode(column: "event", as: String.self),
                    "timestamp": Date(timeIntervalSince1970: TimeInterval(hour)).formatted(.iso8601),
                    "properties": properties,
                ]
                let json = try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys, .withoutEscapingSlashes])
                try write((written == 0 ? "" : ",") + String(decoding: json, as: UTF8.self))
                written += 1
                after = (hour, id)
            }
            if rows.count < pageSize { break }
        }
        try write("]}")
        return written
    }
}
