@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `kindred jobs list|run` and `kindred queue dead-letters|redrive` on a server database.
@Suite struct PlatformCommandsLiveTests {
    @Test func operatorsListAndRunJobs() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("kindred.sqlite").path
        let url = "sqlite:\(path)"
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
        try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
        // Two rate-limit events from two days ago are past every window.
        let old = Date().addingTimeInterval(-2 * 86_400).millisecondsSince1970
        for key in ["a", "b"] {
            try await database.sql.insert(into: "kindred_rate_limit_events").columns("key", "occurred_at")
                .values(SQLBind(key), SQLBind(old)).run()
        }

        let list = try runKindred(["jobs", "list", "--database-url", url, "--log-level", "error"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0[0] } == ["accounts.purge-expired-tokens", "admin.purge-sessions", "closer.assign-daily-questions", "closer.challenge-reminders",
                                        "closer.daily-reminders", "closer.outcomes-reminders", "closer.purge-invites", "closer.unlock-capsules", "exeraser.prune-analytics", "integrity.purge-expired", "notifications.purge-sent", "platform.prune-queue-keys", "platform.prune-rate-limits", "realtime.prune-events",
                                        "soulmate.cleanup-envelopes", "streaksync.prune-scores"])
        #expect(rows.map { $0[1] } == ["*/15 * * * *", "*/30 * * * *", "*/15 * * * *", "*/15 * * * *", "*/15 * * * *", "*/15 * * * *", "23 * * * *", "7 * * * *", "47 3 * * *", "53 * * * *", "23 4 * * *", "17 3 * * *", "7 * * * *", "41 * * * *",
                                        "23 * * * *", "41 3 * * *"])
        #expect(rows.map { $0[2] } == Array(repeating: "UTC", count: 16))
        #expect(rows.map { $0[4] } == Array(repeating: "-", count: 16))
        #expect(rows.allSatisfy { (try? Date($0[3], strategy: .iso8601)) != nil })

        let run = try runKindred(["jobs", "run", "platform.prune-rate-limits", "--database-url", url, "--log-level", "error"])
        #expect(run.status == 0, "\(run.stderr)")
        let fields = run.stdout.trimmingCharacters(in: .newlines).split(separator: "\t").map(String.init)
        #expect(fields.count == 4)
        #expect(fields.first == "platform.prune-rate-limits")
        #expect(fields.dropFirst().first == "ok")
        #expect(fields.last == "deleted 2 expired rate-limit events and keys")
        #expect(try await database.sql.count("kindred_rate_limit_events") == 0)

        let listed = try runKindred(["jobs", "list", "--json", "--database-url", url, "--log-level", "error"])
        let statuses = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        let pruned = statuses?.first { $0["name"] as? String == "platform.prune-rate-limits" }
        let lastRun = pruned?["lastRun"] as? [String: Any]
        #expect(lastRun?["outcome"] as? String == "ok")
        #expect(lastRun?["trigger"] as? String == "manual")
        #expect(try await database.sql.count("kindred_job_runs") == 1)

        let missing = try runKindred(["jobs", "run", "no.such-job", "--database-url", url, "--log-level", "error"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no job named no.such-job"))
        await database.close()
    }

    @Test func operatorsListAndRedriveDeadLetters() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("kindred.sqlite").path
        let url = "sqlite:\(path)"
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
        try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
        let queue = WorkQueue(database: database, clock: SystemClock())
        var ids: [String] = []
        for name in ["webhooks", "webhooks", "push"] {
            guard case .enqueued(let id) = try await queue.enqueue(queue: name, payload: "{}") else { return }
            ids.append(id)
            let item = try #require(try await queue.claim(queue: name, limit: 1, lease: .seconds(60), maxAttempts: 1).first)
            #expect(try await queue.fail(item, error: "HTTP 503\nfrom provider", policy: RetryPolicy(maxAttempts: 1)) == .deadLettered)
        }

        let list = try runKindred(["queue", "dead-letters", "--queue", "webhooks", "--database-url", url, "--log-level", "error"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(Set(rows.map { $0[0] }) == Set(ids.prefix(2)))
        #expect(rows.allSatisfy { $0[1] == "webhooks" && $0[2] == "1" && $0[4] == "HTTP 503 from provider" })

        let one = try runKindred(["queue", "redrive", ids[0], "--database-url", url, "--log-level", "error"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == "re-drove \(ids[0])\n")
        #expect(try await queue.pendingCount(queue: "webhooks") == 1)

        let rest = try runKindred(["queue", "redrive", "--all", "--queue", "webhooks", "--database-url", url, "--log-level", "error"])
        #expect(rest.stdout == "re-drove 1\n")
        #expect(try await queue.pendingCount(queue: "webhooks") == 2)
        #expect(try await queue.deadLetters().map(\.id) == [ids[2]])

        let unknown = try runKindred(["queue", "redrive", "nope", "--database-url", url, "--log-level", "error"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no dead letter nope"))
        let neither = try runKindred(["queue", "redrive", "--database-url", url])
        #expect(neither.status != 0)
        #expect(neither.stderr.contains("give a dead letter's id or --all, not both"))
        await database.close()
    }
}
