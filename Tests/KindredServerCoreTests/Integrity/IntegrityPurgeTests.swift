import DeviceIntegrity
import Foundation
@testable import KindredServerCore
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `integrity.purge-expired` with a pinned clock: expired challenges and stale verdicts go, in
/// pages; unexpired challenges, recent verdicts and a device's newest failure stay.
@Suite struct IntegrityPurgeTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21T14:13:20Z
    static let day: Int64 = 86_400_000

    @Test(arguments: Backend.all)
    func theJobDeletesExpiredChallengesAndStaleVerdicts(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: TestClock(start: Self.start)) { application, client in
            let ada = try await client.anonymous().user.id
            let grace = try await client.anonymous().user.id
            let database = application.database
            let now = Self.start.millisecondsSince1970

            // 1,203 challenges that expired two days ago (three pages of 500), one that expired
            // 23 hours ago (inside the day's grace) and one still open.
            let old = (0..<1_203).map { ("old-\($0)", now - 2 * Self.day) }
            try await Self.insertChallenges(old + [("recent", now - 23 * 3_600_000), ("open", now + 300_000)], userID: ada, on: database)

            // Retention 90 days (the default).
            try await Self.insertVerdicts([
                ("v1", ada, "d1", "passed", now - 100 * Self.day),  // old pass: deleted
                ("v2", ada, "d1", "failed", now - 95 * Self.day),  // d1's newest verdict, a failure: kept
                ("v3", ada, "d2", "failed", now - 120 * Self.day),  // superseded by v4: deleted
                ("v4", ada, "d2", "passed", now - 10 * Self.day),  // recent: kept
                ("v5", grace, "d3", "passed", now - 91 * Self.day),  // old pass: deleted
                ("v6", grace, "d4", "passed", now - 89 * Self.day),  // inside retention: kept
                ("v7", grace, "d5", "passed", now - 90 * Self.day),  // exactly 90 days: kept
                ("v8", grace, "d1", "passed", now - 1 * Self.day),  // another user's d1 supersedes nothing of ada's
            ], on: database)

            let platform = try Platform.server(database: database, clock: application.clock, logger: platformLogger)
            let run = try await platform.jobs.runNow("integrity.purge-expired")
            #expect(run.outcome == .ok)
            #expect(run.message == "deleted 1203 expired challenges and 3 verdicts older than 90 days")
            let challenges = try await database.sql.select().column("challenge_hash").from("kindred_integrity_challenges")
                .orderBy("challenge_hash").all().map { try $0.decode(column: "challenge_hash", as: String.self) }
            #expect(challenges == ["open", "recent"])
            let verdicts = try await database.sql.select().column("id").from("kindred_integrity_verdicts")
                .orderBy("id").all().map { try $0.decode(column: "id", as: String.self) }
            #expect(verdicts == ["v2", "v4", "v6", "v7", "v8"])

            // Purging changes no device's verdict: d1 is still failed, d2 still passed within a
            // 30-day freshness.
            let store = IntegrityStore(database: database, clock: application.clock)
            #expect(try await store.currentVerdict(userID: ada, app: .closer, device: "d1", lifetime: .seconds(30 * 86_400))
                == .failed(reason: "failed"))
            #expect(try await store.currentVerdict(userID: ada, app: .closer, device: "d2", lifetime: .seconds(30 * 86_400)) == .passed)

            #expect(try await platform.jobs.runNow("integrity.purge-expired").message
                == "deleted 0 expired challenges and 0 verdicts older than 90 days")

            // A day and six minutes later both challenges are a day and more past expiry (the open
            // one expired five minutes in), and v6 and v7 are past 90 days.
            application.clock.advance(by: .seconds(86_760))
            #expect(try await platform.jobs.runNow("integrity.purge-expired").message
                == "deleted 2 expired challenges and 2 verdicts older than 90 days")
        }
    }

    @Test(arguments: Backend.all)
    func pagesAreBoundedAndTheRetentionIsASetting(backend: Backend) async throws {
        try await TestApplication.run(on: backend, clock: TestClock(start: Self.start)) { application, client in
            let ada = try await client.anonymous().user.id
            let database = application.database
            let now = Self.start.millisecondsSince1970
            try await Self.insertVerdicts((0..<5).map { ("p\($0)", ada, "device-\($0)", "passed", now - Int64(40 + $0) * Self.day) }, on: database)

            // 90 days: nothing is old enough.
            #expect(try await IntegrityPurge.purgeVerdicts(database: database, clock: application.clock, retention: .seconds(90 * 86_400), limit: 2) == 0)
            // 30 days: five, in pages of two, oldest first.
            let retention: Duration = .seconds(30 * 86_400)
            #expect(try await IntegrityPurge.purgeVerdicts(database: database, clock: application.clock, retention: retention, limit: 2) == 2)
            let left = try await database.sql.select().column("id").from("kindred_integrity_verdicts")
                .orderBy("id").all().map { try $0.decode(column: "id", as: String.self) }
            #expect(left == ["p0", "p1", "p2"])
            #expect(try await IntegrityPurge.purgeVerdicts(database: database, clock: application.clock, retention: retention, limit: 2) == 2)
            #expect(try await IntegrityPurge.purgeVerdicts(database: database, clock: application.clock, retention: retention, limit: 2) == 1)
            #expect(try await IntegrityPurge.purgeVerdicts(database: database, clock: application.clock, retention: retention, limit: 2) == 0)

            // The platform's setting reaches the job.
            try await Self.insertVerdicts([("q", ada, "device-q", "passed", now - 31 * Self.day)], on: database)
            var settings = Platform.Settings()
            settings.integrityVerdictRetention = retention
            let platform = try Platform.server(database: database, clock: application.clock, logger: platformLogger, settings: settings)
            #expect(try await platform.jobs.runNow("integrity.purge-expired").message
                == "deleted 0 expired challenges and 1 verdicts older than 30 days")
        }
    }

    static func insertChallenges(_ rows: [(hash: String, expiresAt: Int64)], userID: String, on database: Database) async throws {
        for page in stride(from: 0, to: rows.count, by: 400) {
            let insert = database.sql.insert(into: "kindred_integrity_challenges")
                .columns("challenge_hash", "user_id", "app", "created_at", "expires_at")
            for (hash, expiresAt) in rows[page..<min(page + 400, rows.count)] {
                insert.values(SQLBind(hash), SQLBind(userID), SQLBind("closer"), SQLBind(expiresAt - 300_000), SQLBind(expiresAt))
            }
            try await insert.run()
        }
    }

    static func insertVerdicts(
        _ rows: [(id: String, userID: String, device: String, verdict: String, createdAt: Int64)], on database: Database
    ) async throws {
        for row in rows {
            let reason: String? = row.verdict == "failed" ? "failed" : nil
            try await database.sql.insert(into: "kindred_integrity_verdicts")
                .columns("id", "user_id", "app", "device", "platform", "verdict", "reason", "created_at")
                .values(SQLBind(row.id), SQLBind(row.userID), SQLBind("closer"), SQLBind(row.device), SQLBind("app_attest"),
                        SQLBind(row.verdict), SQLBind(reason), SQLBind(row.createdAt))
                .run()
        }
    }
}
