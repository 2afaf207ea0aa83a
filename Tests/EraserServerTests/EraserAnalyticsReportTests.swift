@testable import EraserServer
@testable import KindredServer
@testable import KindredServerCore
import Foundation
import HummingbirdTesting
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// What operators read (counts per day, the PostHog export) and the retention job.
@Suite struct EraserAnalyticsReportTests {
    /// Inserts `count` events of `event` at `hour` (seconds since 1970) straight into the table.
    static func insert(_ event: String, count: Int, hour: Int64, properties: String = "{}", on database: Database) async throws {
        for _ in 0..<count {
            try await database.sql.insert(into: "exeraser_analytics_events").columns("id", "event", "properties", "occurred_hour")
                .values(SQLBind(UUID().uuidString), SQLBind(event), SQLBind(properties), SQLBind(hour)).run()
        }
    }

    static let day: Int64 = 86_400
    /// 2025-06-15T00:00:00Z.
    static let midnight: Int64 = 1_749_945_600

    @Test(arguments: Backend.all)
    func countsPerDayAndEventInTheRange(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            try await Self.insert("scan_started", count: 3, hour: Self.midnight, on: database)
            try await Self.insert("scan_started", count: 2, hour: Self.midnight + 23 * 3600, on: database)
            try await Self.insert("vault_action", count: 1, hour: Self.midnight + 5 * 3600, on: database)
            try await Self.insert("scan_started", count: 4, hour: Self.midnight + Self.day, on: database)
            try await Self.insert("delete_action", count: 7, hour: Self.midnight - 3600, on: database)
            let range = DateInterval(
                start: Date(timeIntervalSince1970: TimeInterval(Self.midnight)), duration: TimeInterval(2 * Self.day)
            )
            let counts = try await EraserAnalyticsReport.counts(in: range, database: database)
            #expect(counts == [
                .init(day: "2025-06-15", event: "scan_started", count: 5),
                .init(day: "2025-06-15", event: "vault_action", count: 1),
                .init(day: "2025-06-16", event: "scan_started", count: 4),
            ])
        }
    }

    @Test(arguments: Backend.all)
    func thePostHogExportIsOneBatchWithAFreshDistinctIDPerEvent(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            try await Self.insert("vault_action", count: 3, hour: Self.midnight, properties: #"{"items":2,"mediaType":"photo"}"#, on: database)
            try await Self.insert("scan_started", count: 2, hour: Self.midnight + 3600, on: database)
            try await Self.insert("scan_started", count: 1, hour: Self.midnight + 3 * Self.day, on: database)
            var text = ""
            let range = DateInterval(start: Date(timeIntervalSince1970: TimeInterval(Self.midnight)), duration: TimeInterval(Self.day))
            let written = try await EraserAnalyticsReport.writePostHogBatch(
                in: range, apiKey: "phc_test", database: database, pageSize: 2
            ) { text += $0 }
            #expect(written == 5)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["api_key"] as? String == "phc_test")
            let batch = try #require(object["batch"] as? [[String: Any]])
            #expect(batch.map { $0["event"] as? String } == ["vault_action", "vault_action", "vault_action", "scan_started", "scan_started"])
            #expect(batch.map { $0["timestamp"] as? String } == Array(repeating: "2025-06-15T00:00:00Z", count: 3) + Array(repeating: "2025-06-15T01:00:00Z", count: 2))
            let properties = batch.compactMap { $0["properties"] as? [String: Any] }
            #expect(properties.count == 5)
            #expect(properties.first?["items"] as? Int == 2 && properties.first?["mediaType"] as? String == "photo")
            #expect(properties.allSatisfy { $0["$process_person_profile"] as? Bool == false })
            let ids = properties.compactMap { $0["distinct_id"] as? String }
            #expect(Set(ids).count == 5)
        }
    }

    @Test(arguments: Backend.all)
    func theRetentionJobDeletesOnlyOlderEvents(backend: Backend) async throws {
        try await withMigratedDatabase(backend) { database in
            let now = Date(timeIntervalSince1970: TimeInterval(Self.midnight))
            try await Self.insert("scan_started", count: 3, hour: Self.midnight - 401 * Self.day, on: database)
            try await Self.insert("scan_started", count: 2, hour: Self.midnight - 399 * Self.day, on: database)
            let cutoff = now.addingTimeInterval(-400 * 86_400)
            var deleted = 0
            while true {
                let page = try await EraserController.deleteEvents(before: cutoff, limit: 2, database: database)
                deleted += page
                if page == 0 { break }
            }
            #expect(deleted == 3)
            let left = try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("exeraser_analytics_events").first()?.decode(column: "n", as: Int.self)
            #expect(left == 2)
        }
    }
}
