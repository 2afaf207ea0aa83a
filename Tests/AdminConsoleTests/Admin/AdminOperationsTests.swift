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
            #expect(empty.contains("Every queue is empty and there are no dead letters. Nothing to do."))

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
}
