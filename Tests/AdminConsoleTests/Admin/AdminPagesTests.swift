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

/// The console's pages: the subscriptions table with search and filters, the detail view and
/// its actions, the backfills' dry-run reports, the dead letters; every form CSRF-checked.
@Suite struct AdminPagesTests {
    @Test func theTableShowsPulsesColumnsEscapedAndPassesTheFilters() async throws {
        try await AdminTestApp.run { app, client in
            let browser = try await client.adminLogIn()
            let page = try await client.adminGet("/admin/subscriptions", cookie: browser.cookie)
            let text = String(buffer: page.body)
            for header in ["Subscription id", "User id", "Username", "E-mail", "Platform", "Type", "Status", "Active", "Latest expiration"] {
                #expect(text.contains("<th>\(header)</th>"), "\(header)")
            }
            #expect(text.contains("<td>tester32@example.com</td>"))
            #expect(text.contains("<td>2030-01-01 00:00 UTC</td>"))
            #expect(text.contains(#"<td class="active-Expired">Expired</td>"#))
            #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!text.contains("<script>"))
            #expect(text.contains(#"<ul id="double-billing">"#) && text.contains(#"<li><a href="/admin/subscriptions/user-1">user-1</a>"#))

            let filtered = try await client.adminGet(
                "/admin/subscriptions?q=tester32&status=active&platform=web&page=1", cookie: browser.cookie
            )
            let filteredText = String(buffer: filtered.body)
            #expect(filteredText.contains("1 subscriptions · page 1 of 1"))
            #expect(filteredText.contains(#"<option value="active" selected>"#))
            #expect(filteredText.contains(#"value="tester32""#))
            let ignored = try await client.adminGet("/admin/subscriptions?status=bogus&platform=<x>", cookie: browser.cookie)
            #expect(ignored.status == .ok)
            let calls = app.directory?.calls.withLock { $0 } ?? []
            #expect(calls == ["search(-, -, -, 0)", "search(-, -, -, 0)", "search(tester32, active, web, 0)", "search(-, -, -, 0)"])
        }
    }

    @Test func theDetailShowsTheComputationAndHistoryWithProvenance() async throws {
        try await AdminTestApp.run { _, client in
            let browser = try await client.adminLogIn()
            let page = try await client.adminGet("/admin/subscriptions/user-1", cookie: browser.cookie)
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            #expect(text.contains(#"<dd id="computed-status">active</dd>"#))
            #expect(text.contains(#"<td class="mono">evt_1</td>"#))
            // The last provider answers, escaped like every other value.
            #expect(text.contains(#"<div id="raw"><pre class="mono">revenuecat at 2029-11-26T10:00:00Z: ok"#))
            #expect(text.contains("&lt;b&gt;404&lt;/b&gt;"))
            #expect(!text.contains("<b>404</b>"))
            #expect(text.contains("double billing: Stripe and RevenueCat are both active"))
            let missing = try await client.adminGet("/admin/subscriptions/nobody", cookie: browser.cookie)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains("Not found: user nobody."))
        }
    }

    @Test func actionsNeedTheSessionsCSRFToken() async throws {
        try await AdminTestApp.run { app, client in
            let browser = try await client.adminLogIn()
            let session = [AdminTestCookies.session: browser.cookie]
            let posts: [(String, [(String, String)])] = [
                ("/admin/subscriptions/user-1/sync", []),
                ("/admin/subscriptions/user-1/refresh", []),
                ("/admin/backfills/user-fields", [("mode", "apply")]),
                ("/admin/dead-letters/redrive", [("all", "1")]),
            ]
            for (path, fields) in posts {
                let none = try await client.adminPost(path, cookies: session, fields: fields)
                #expect(none.status == .forbidden, "\(path)")
                #expect(String(buffer: none.body).contains("security token is missing or wrong"), "\(path)")
                let wrong = try await client.adminPost(path, cookies: session, fields: [("csrf", String(browser.csrf.reversed()))] + fields)
                #expect(wrong.status == .forbidden, "\(path)")
                let anonymous = try await client.adminPost(path, cookies: [:], fields: [("csrf", browser.csrf)] + fields)
                #expect(anonymous.status == .forbidden, "\(path)")
            }
            #expect(app.directory?.calls.withLock { $0.filter { !$0.hasPrefix("search") } } == [])

            // Post/Redirect/Get: each action answers 303 to the detail page, which shows what happened once.
            let synced = try await client.adminPost("/admin/subscriptions/user-1/sync", cookies: session, fields: [("csrf", browser.csrf)])
            #expect(synced.status == .seeOther)
            #expect(synced.headers[.location] == "/admin/subscriptions/user-1")
            let afterSync = try await client.adminGet("/admin/subscriptions/user-1", cookie: browser.cookie)
            #expect(String(buffer: afterSync.body).contains(
                #"<p class="notice" role="status" id="notice">Synced: 2 plan entries appended; could not read revenuecat.</p>"#
            ))
            let reloaded = try await client.adminGet("/admin/subscriptions/user-1", cookie: browser.cookie)
            #expect(reloaded.status == .ok)
            #expect(!String(buffer: reloaded.body).contains(#"id="notice""#))
            let refreshed = try await client.adminPost(
                "/admin/subscriptions/user-1/refresh", cookies: session, fields: [("csrf", browser.csrf)]
            )
            #expect(refreshed.status == .seeOther)
            #expect(refreshed.headers[.location] == "/admin/subscriptions/user-1")
            let afterRefresh = try await client.adminGet("/admin/subscriptions/user-1", cookie: browser.cookie)
            #expect(String(buffer: afterRefresh.body).contains(#"<p class="notice" role="status" id="notice">Recomputed.</p>"#))
            #expect(app.directory?.calls.withLock { $0.filter { !$0.hasPrefix("search") } } == ["sync(user-1)", "refresh(user-1)"])

            // The seed's Stripe-only trigger: the form's provider choice reaches the directory.
            let stripeOnly = try await client.adminPost(
                "/admin/subscriptions/user-1/sync", cookies: session, fields: [("csrf", browser.csrf), ("provider", "stripe")]
            )
            #expect(stripeOnly.status == .seeOther)
            let afterStripe = try await client.adminGet("/admin/subscriptions/user-1", cookie: browser.cookie)
            #expect(String(buffer: afterStripe.body).contains(#"id="notice">Synced stripe: 2 plan entries appended"#))
            let unknown = try await client.adminPost(
                "/admin/subscriptions/user-1/sync", cookies: session, fields: [("csrf", browser.csrf), ("provider", "paypal")]
            )
            #expect(unknown.status == .badRequest)
            #expect(
                app.directory?.calls.withLock { $0.filter { !$0.hasPrefix("search") } }
                    == ["sync(user-1)", "refresh(user-1)", "sync(user-1, stripe)"]
            )
        }
    }

    @Test func aBackfillShowsItsDryRunReportBeforeWriting() async throws {
        try await AdminTestApp.run { app, client in
            let browser = try await client.adminLogIn()
            let session = [AdminTestCookies.session: browser.cookie]
            let dryRun = try await client.adminPost(
                "/admin/backfills/user-fields", cookies: session, fields: [("csrf", browser.csrf), ("mode", "dry-run")]
            )
            #expect(dryRun.status == .ok)
            let text = String(buffer: dryRun.body)
            #expect(text.contains("Dry run: nothing was written."))
            #expect(text.contains("Examined 2; 1 changes; 0 failures."))
            #expect(text.contains(#"<td class="mono">username: nil → &quot;tester33&quot;</td>"#))
            #expect(text.contains(#"<input type="hidden" name="mode" value="apply">"#))
            let apply = try await client.adminPost(
                "/admin/backfills/user-fields", cookies: session, fields: [("csrf", browser.csrf), ("mode", "apply")]
            )
            #expect(apply.status == .seeOther)
            #expect(apply.headers[.location] == "/admin/subscriptions")
            let written = try await client.adminGet("/admin/subscriptions", cookie: browser.cookie)
            #expect(String(buffer: written.body).contains(
                #"<p class="notice" role="status" id="notice">Backfill user fields: wrote 1 changes (examined 2; 0 failures). "#
                    + #"user-2: username: nil → &quot;tester33&quot;.</p>"#
            ))
            let reloaded = try await client.adminGet("/admin/subscriptions", cookie: browser.cookie)
            #expect(!String(buffer: reloaded.body).contains(#"id="notice""#))
            let oneUserApply = try await client.adminPost(
                "/admin/backfills/expiration-history", cookies: session,
                fields: [("csrf", browser.csrf), ("mode", "apply"), ("user", "user-1")]
            )
            #expect(oneUserApply.status == .seeOther)
            #expect(oneUserApply.headers[.location] == "/admin/subscriptions/user-1")
            let oneUser = try await client.adminPost(
                "/admin/backfills/expiration-history", cookies: session,
                fields: [("csrf", browser.csrf), ("mode", "dry-run"), ("user", "user-1")]
            )
            #expect(String(buffer: oneUser.body).contains("User user-1 only."))
            let unknown = try await client.adminPost(
                "/admin/backfills/everything", cookies: session, fields: [("csrf", browser.csrf), ("mode", "dry-run")]
            )
            #expect(unknown.status == .notFound)
            #expect(app.directory?.calls.withLock { $0.filter { !$0.hasPrefix("search") } } == [
                "backfill(user-fields, dryRun: true, user: -)", "backfill(user-fields, dryRun: false, user: -)",
                "backfill(expiration-history, dryRun: false, user: user-1)",
                "backfill(expiration-history, dryRun: true, user: user-1)",
            ])
        }
    }

    @Test func withoutAFakeThePagesReadBillingsAdministration() async throws {
        try await AdminTestApp.run(directory: nil) { _, client in
            let browser = try await client.adminLogIn()
            let page = try await client.adminGet("/admin/subscriptions", cookie: browser.cookie)
            #expect(String(buffer: page.body).contains("0 subscriptions · page 1 of 1"))
            let detail = try await client.adminGet("/admin/subscriptions/nobody", cookie: browser.cookie)
            #expect(detail.status == .notFound)
            let report = try await client.adminPost(
                "/admin/backfills/user-fields", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("csrf", browser.csrf), ("mode", "dry-run")]
            )
            #expect(String(buffer: report.body).contains("Examined 0; 0 changes; 0 failures."))
        }
    }

    @Test(arguments: Backend.all) func deadLettersAreListedAndReDriven(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            for (id, queue) in [("dl-1", "billing.inbox"), ("dl-2", "notifications")] {
                try await app.database.sql.insert(into: "kindred_queue_dead_letters")
                    .columns("id", "queue", "payload", "dedupe_key", "attempts", "last_error", "created_at", "failed_at")
                    .values(
                        SQLBind(id), SQLBind(queue), SQLBind(#"{"event":"<evt>"}"#), SQLBind(String?.none), SQLBind(8),
                        SQLBind("database unavailable"), SQLBind(Int64(1_700_000_000_000)), SQLBind(Int64(1_700_000_100_000))
                    )
                    .run()
            }
            let browser = try await client.adminLogIn()
            let page = try await client.adminGet("/admin/dead-letters", cookie: browser.cookie)
            let text = String(buffer: page.body)
            #expect(text.contains(#"<td class="mono">dl-1</td><td>billing.inbox</td><td>8</td>"#))
            #expect(text.contains("{&quot;event&quot;:&quot;&lt;evt&gt;&quot;}"))
            let filtered = try await client.adminGet("/admin/dead-letters?queue=notifications", cookie: browser.cookie)
            #expect(!String(buffer: filtered.body).contains("dl-1") && String(buffer: filtered.body).contains("dl-2"))
            let bad = try await client.adminGet("/admin/dead-letters?queue=No%20Such", cookie: browser.cookie)
            #expect(bad.status == .badRequest)

            let session = [AdminTestCookies.session: browser.cookie]
            // Each re-drive answers 303 to the list (keeping the queue filter), which shows the result once.
            func redrive(_ fields: [(String, String)]) async throws -> (location: String?, notice: String) {
                let posted = try await client.adminPost("/admin/dead-letters/redrive", cookies: session, fields: [("csrf", browser.csrf)] + fields)
                #expect(posted.status == .seeOther)
                let location = try #require(posted.headers[.location])
                let page = String(buffer: try await client.adminGet(location, cookie: browser.cookie).body)
                let notice = page.range(of: #"id="notice">"#).map { String(page[$0.upperBound...].prefix { $0 != "<" }) } ?? ""
                return (location, notice)
            }
            let one = try await redrive([("id", "dl-1")])
            #expect(one.location == "/admin/dead-letters")
            #expect(one.notice == "Re-drove dl-1.")
            let again = try await redrive([("id", "dl-1"), ("queue", "billing.inbox")])
            #expect(again.location == "/admin/dead-letters?queue=billing.inbox")
            #expect(again.notice == "There is no dead letter dl-1 (already re-driven?).")
            let all = try await redrive([("all", "1")])
            #expect(all.notice == "Re-drove 1 dead letters.")
            let reload = try await client.adminGet("/admin/dead-letters", cookie: browser.cookie)
            #expect(!String(buffer: reload.body).contains(#"id="notice""#))
            let left = try await app.platform.queue.deadLetters()
            #expect(left.isEmpty)
            let items = try await app.database.sql.select().column("id").from("kindred_queue_items").orderBy("id").all()
                .map { try $0.decode(column: "id", as: String.self) }
            #expect(items == ["dl-1", "dl-2"])
        }
    }
}
