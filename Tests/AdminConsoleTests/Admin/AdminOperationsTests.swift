@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// The jobs page (every registered job, run now) and the queues page (depth, due, retrying,
/// oldest, dead letters).
@Suite struct AdminOperationsTests {
    @Test func theJobsPageListsEveryJobAndRunsOneNow() async throws {
        try await AdminTestApp.run { app, client in
            try app.platform.jobs.register(Job("test.count", schedule: "0 3 * * *") { _ in "counted 7" })
            let browser = try await client.adminLogIn()
            let page = String(buffer: try await client.adminGet("/admin/jobs", cookie: browser.cookie).body)
            #expect(page.contains(#"<tr data-job="test.count"><td class="mono">test.count</td><td class="mono">0 3 * * * <span class="hint">(UTC)</span></td>"#))
            #expect(page.contains("never run"))

            let run = try await client.adminPost(
                "/admin/jobs/run", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("csrf", browser.csrf), ("name", "test.count")]
            )
            #expect(run.status == .seeOther)
            #expect(run.headers[.location] == "/admin/jobs")
            let after = String(buffer: try await client.adminGet("/admin/jobs", cookie: browser.cookie).body)
            #expect(after.contains("Ran test.count: ok in "))
            #expect(after.contains(#"ok<div class="wrap hint">counted 7</div>"#))
            let history = try await app.platform.jobs.history("test.count")
            #expect(history.map(\.trigger) == [.manual])

            let unknown = try await client.adminPost(
                "/admin/jobs/run", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("csrf", browser.csrf), ("name", "no.such.job")]
            )
            #expect(unknown.status == .notFound)
            let forged = try await client.adminPost(
                "/admin/jobs/run", cookies: [AdminTestCookies.session: browser.cookie], fields: [("name", "test.count")]
            )
            #expect(forged.status == .forbidden)
            #expect(try await app.platform.jobs.history("test.count").count == 1)
            let audit = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 10).entries
            #expect(audit.filter { $0.action == "job.run" }.map(\.target) == ["test.count"])
        }
    }

    @Test(arguments: Backend.all) func theQueuesPageShowsDepthAgeAndDeadLetters(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            let browser = try await client.adminLogIn()
            let empty = String(buffer: try await client.adminGet("/admin/queues", cookie: browser.cookie).body)
            #expect(empty.contains("Every queue is empty, there are no dead letters and nothing ran in the last hour. Nothing to do."))

            for index in 0..<3 {
                _ = try await app.platform.queue.enqueue(queue: "test.mail", payload: "p\(index)")
            }
            _ = try await app.platform.queue.enqueue(
                queue: "test.mail", payload: "later", runAt: app.clock.now().addingTimeInterval(3600)
            )
            let now = app.clock.now().millisecondsSince1970
            try await app.database.sql.insert(into: "kindred_queue_dead_letters")
                .columns("id", "queue", "payload", "attempts", "last_error", "created_at", "failed_at")
                .values(SQLBind("d1"), SQLBind("test.push"), SQLBind("{}"), SQLBind(5), SQLBind("boom"), SQLBind(now), SQLBind(now))
                .run()
            app.clock.advance(by: .seconds(125))
            let text = String(buffer: try await client.adminGet("/admin/queues", cookie: browser.cookie).body)
            #expect(text.contains(#"<tr data-queue="test.mail"><td class="mono">test.mail</td><td class="num">4</td><td class="num">3</td><td class="num">0</td><td>2 min</td>"#))
            #expect(text.contains(#"<tr data-queue="test.push"><td class="mono">test.push</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td>—</td>"#))
            #expect(text.contains(#"<a href="/admin/dead-letters?queue=test.push">1</a>"#))
            let anonymous = try await client.adminGet("/admin/queues")
            #expect(anonymous.status == .seeOther)
        }
    }

    @Test(arguments: Backend.all) func theQueuesPageShowsTheLastHoursThroughputAndFailures(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            let worker = app.platform.worker
            try worker.register(QueueHandler(queue: "test.work", policy: RetryPolicy(maxAttempts: 1), concurrency: 10) { item in
                if item.payload == "bad" { throw AdminRefusal.badRequest("bad item") }
            })
            try worker.register(QueueHandler(queue: "test.flaky", policy: RetryPolicy(maxAttempts: 3), concurrency: 10) { _ in
                throw AdminRefusal.badRequest("try again")
            })
            for payload in ["a", "b", "c", "d", "e", "bad"] {
                _ = try await app.platform.queue.enqueue(queue: "test.work", payload: payload)
            }
            _ = try await app.platform.queue.enqueue(queue: "test.flaky", payload: "x")
            #expect(await worker.processAvailable() == 7)

            let browser = try await client.adminLogIn()
            let text = String(buffer: try await client.adminGet("/admin/queues", cookie: browser.cookie).body)
            let work = try #require(AdminPushTests.section(text, from: #"<tr data-queue="test.work">"#, to: "</tr>"))
            #expect(work.contains(#"<span class="count">5</span> <svg class="spark""#))
            #expect(work.contains(#"aria-label="Completed here, last hour, last 60 minutes: lowest 0, highest 5, this minute 5""#))
            // 5 in 60 minutes: 0.083 a minute, shown as 0.1.
            #expect(work.contains(#"<td class="num per-minute">0.1</td><td class="num failed">1</td><td class="num dead-lettered">1</td>"#))
            #expect(work.contains(#"<a href="/admin/dead-letters?queue=test.work">1</a>"#))
            let flaky = try #require(AdminPushTests.section(text, from: #"<tr data-queue="test.flaky">"#, to: "</tr>"))
            // Waiting 1 (due now or later, by the retry's jitter), retrying 1.
            #expect(flaky.contains(#"<td class="mono">test.flaky</td><td class="num">1</td>"#))
            #expect(flaky.contains(#"</td><td class="num">1</td><td>0 s</td>"#))
            #expect(flaky.contains(#"<td class="num completed"><span class="count">0</span>"#))
            #expect(flaky.contains(#"<td class="num per-minute">0</td><td class="num failed">1</td><td class="num dead-lettered">0</td>"#))

            // Two hours later the last hour holds nothing; the dead letter itself is kept.
            app.clock.advance(by: .seconds(7200))
            // The console session has been idle past its 30 minutes: log in again.
            let again = try await client.adminLogIn()
            let later = String(buffer: try await client.adminGet("/admin/queues", cookie: again.cookie).body)
            let old = try #require(AdminPushTests.section(later, from: #"<tr data-queue="test.work">"#, to: "</tr>"))
            #expect(old.contains(#"<td class="num per-minute">0</td><td class="num failed">0</td><td class="num dead-lettered">0</td>"#))
            #expect(old.contains(#"<a href="/admin/dead-letters?queue=test.work">1</a>"#))
        }
    }

    @Test func perMinuteRoundsToOneDecimal() {
        #expect(AdminConsole.perMinute([]) == "0")
        #expect(AdminConsole.perMinute(Array(repeating: 0, count: 60)) == "0")
        #expect(AdminConsole.perMinute([5] + Array(repeating: 0, count: 59)) == "0.1")
        #expect(AdminConsole.perMinute(Array(repeating: 2, count: 60)) == "2")
        #expect(AdminConsole.perMinute([75_000, 30]) == "37,515")
        #expect(AdminConsole.perMinute([3, 4]) == "3.5")
    }
}
