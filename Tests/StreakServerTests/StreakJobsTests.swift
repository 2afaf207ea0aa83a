@testable import KindredServer
@testable import KindredServerCore
@testable import StreakServer
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `streaksync.prune-scores`: scores of dates older than the retention (400 days) are deleted;
/// results and achievements are kept.
@Suite struct StreakJobsTests {
    /// Inserts scores of `userID` for `count` games on `date`.
    static func insertScores(_ userID: String, date: String, count: Int, on database: Database) async throws {
        for batch in stride(from: 0, to: count, by: 100) {
            let insert = database.sql.insert(into: "streaksync_scores")
                .columns("user_id", "game_id", "local_date", "score", "max_score", "completed", "current_streak", "published_at")
            for index in batch..<min(batch + 100, count) {
                insert.values(
                    SQLBind(userID), SQLBind("game-\(index)"), SQLBind(date), SQLBind(3), SQLBind(6), SQLBind(true), SQLBind(1), SQLBind(Int64(0))
                )
            }
            try await insert.run()
        }
    }

    static func dates(on database: Database) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try await database.sql.select().column("local_date").from("streaksync_scores").all() {
            counts[try row.decode(column: "local_date", as: String.self), default: 0] += 1
        }
        return counts
    }

    @Test(arguments: Backend.all)
    func thePruneDeletesScoresOlderThanTheRetentionPageByPage(backend: Backend) async throws {
        let clock = try StreakFixtures.clock()
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let database = application.database
            let pia = try await client.streakMember("pia")
            #expect(try await client.streak(.post, "/v1/streaksync/results", token: pia.token, json: StreakFixtures.results([
                StreakFixtures.result("old", date: "2024-01-01", recordedAt: "2024-01-01T08:00:00Z", updatedAt: "2024-01-01T08:00:00Z"),
            ])).status == .ok)
            // 2026-07-01 minus 400 days is 2025-05-27: older dates go, that one stays.
            try await Self.insertScores(pia.id, date: "2025-05-25", count: 620, on: database)
            try await Self.insertScores(pia.id, date: "2025-05-26", count: 2, on: database)
            try await Self.insertScores(pia.id, date: "2025-05-27", count: 3, on: database)
            #expect(try await client.publish(pia, score: 4).status == .ok)

            let platform = try Platform.server(database: database, clock: clock, logger: platformLogger)
            let run = try await platform.jobs.runNow("streaksync.prune-scores")
            #expect(run.outcome == .ok)
            #expect(run.message == "deleted 622 scores dated before 2025-05-27")
            #expect(try await Self.dates(on: database) == ["2025-05-27": 3, StreakFixtures.today: 1])
            #expect(try await platform.jobs.runNow("streaksync.prune-scores").message == "deleted 0 scores dated before 2025-05-27")
            // A day later the next date goes; the synced result of 2024 is untouched.
            clock.advance(by: .seconds(86_400))
            #expect(try await platform.jobs.runNow("streaksync.prune-scores").message == "deleted 3 scores dated before 2025-05-28")
            #expect(try await StreakFixtures.count("streaksync_results", where: "user_id", is: pia.id, on: database) == 1)
        }
    }
}
