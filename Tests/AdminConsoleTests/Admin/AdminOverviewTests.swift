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

/// The overview (`GET /admin`, the landing page after login): accounts per app with their
/// 30-day sparkline, each domain's numbers through the core's hook, and the server's health.
@Suite struct AdminOverviewTests {
    @Test(arguments: Backend.all) func theOverviewCountsEachAppsAccountsAndEachDomainsNumbers(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            _ = try await client.signUp("one@example.com", app: "closer")
            _ = try await client.signUp("two@example.com", app: "closer")
            _ = try await client.anonymous(app: "exeraser")
            // An account created 10 days ago counts in 30 days but not in 7 or today.
            let old = try await client.signUp("old@example.com", app: "closer")
            let tenDaysAgo = app.clock.now().millisecondsSince1970 - 10 * 86_400_000
            try await app.database.sql.update("kindred_users").set("created_at", to: tenDaysAgo)
                .where("id", .equal, old.user.id).run()
            let hour = Int64(app.clock.now().timeIntervalSince1970) / 3600 * 3600
            for (index, event) in ["scan_started", "scan_started", "vault_opened"].enumerated() {
                try await app.database.sql.insert(into: "exeraser_analytics_events")
                    .columns("id", "event", "properties", "occurred_hour")
                    .values(SQLBind("e\(index)"), SQLBind(event), SQLBind("{}"), SQLBind(hour)).run()
            }

            let browser = try await client.adminLogIn()
            let page = try await client.adminGet("/admin", cookie: browser.cookie)
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            let closer = try #require(Self.card(text, app: "closer"))
            #expect(closer.contains(Self.stat("Accounts", "3")))
            #expect(closer.contains(Self.stat("New today", "2")))
            #expect(closer.contains(Self.stat("New in 7 days", "2")))
            #expect(closer.contains(Self.stat("New in 30 days", "3")))
            #expect(closer.contains(Self.stat("Active in the last day", "3")))
            // Today's 2 is the series' highest value: the last point touches the top.
            #expect(closer.contains(#"aria-label="New today, last 30 days: lowest 0, highest 2, today 2""#))
            #expect(closer.contains(#" 74.5,26 78.6,14 82.8,26 "#))  // the account made 10 days ago
            #expect(closer.contains(#" 115.9,26 120,2" fill="none""#))
            let eraser = try #require(Self.card(text, app: "exeraser"))
            #expect(eraser.contains(Self.stat("Accounts", "1")))
            let pulse = try #require(Self.card(text, app: "pulse"))
            #expect(pulse.contains(Self.stat("Accounts", "0")))

            // The domains' numbers, each through its own `adminOverview`.
            for title in ["<h3>Closer</h3>", "<h3>SoulMate</h3>", "<h3>StreakSync</h3>", "<h3>Ex-Eraser</h3>", "<h3>Subscriptions</h3>"] {
                #expect(text.contains(title), "\(title)")
            }
            #expect(text.contains(Self.stat("Couples", "0")))
            #expect(text.contains(Self.stat("Pairs", "0")))
            #expect(text.contains(Self.stat("Events today", "3")))
            #expect(text.contains(Self.stat("Last 24 h · scan_started", "2")))
            #expect(text.contains(Self.stat("Last 24 h · vault_opened", "1")))
            #expect(text.contains(Self.stat("Scores today", "0")))

            #expect(text.contains(#"<dd id="version">0.1.0</dd>"#))
            #expect(text.contains(#"<dd id="database">\#(app.database.sql.dialect.name)</dd>"#))
            #expect(text.contains(#"<a href="/admin" aria-current="page">Overview</a>"#))
            #expect(text.contains(#"<script src="/admin/admin.js" defer></script>"#))
        }
    }

    @Test(arguments: Backend.all) func billingCountsActiveSubscriptionsByPlatformAndThisWeeksExpirations(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            let now = Int64(app.clock.now().timeIntervalSince1970)
            let rows: [(String, String, String, Int64)] = [
                ("a", "ios", "active", now + 3 * 86_400), ("b", "ios", "active", now + 40 * 86_400),
                ("c", "web", "active", now + 86_400), ("d", "web", "expired", now - 86_400),
            ]
            for (name, platform, status, expiration) in rows {
                let user = try await client.signUp("\(name)@example.com", app: "pulse")
                try await app.database.sql.insert(into: "kindred_billing_subscriptions")
                    .columns("user_id", "app", "platform", "status", "latest_expiration", "double_billing", "created_at", "updated_at")
                    .values(
                        SQLBind(user.user.id), SQLBind("pulse"), SQLBind(platform), SQLBind(status), SQLBind(expiration),
                        SQLBind(false), SQLBind(now * 1000), SQLBind(now * 1000)
                    ).run()
            }
            let browser = try await client.adminLogIn()
            let text = String(buffer: try await client.adminGet("/admin", cookie: browser.cookie).body)
            #expect(text.contains(Self.stat("pulse · active · ios", "2")))
            #expect(text.contains(Self.stat("pulse · active · web", "1")))
            #expect(text.contains(Self.stat("pulse · expiring within 7 days", "2")))
            #expect(!text.contains("closer · expiring"))
        }
    }

    @Test func theLandingPageAndStaticFilesAreTheConsoles() async throws {
        try await AdminTestApp.run { _, client in
            let anonymous = try await client.adminGet("/admin")
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers[.location] == "/admin/login")
            let login = try await client.adminLogInResponse()
            #expect(login.headers[.location] == "/admin")
            let css = try await client.adminGet("/admin/admin.css")
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(String(buffer: css.body).contains("position: sticky"))
            let script = try await client.adminGet("/admin/admin.js")
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(String(buffer: script.body).contains("time[datetime]"))
            #expect(script.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
        }
    }

    /// The HTML of one stat as `spark.mustache` renders it.
    static func stat(_ label: String, _ value: String) -> String {
        #"<span class="stat-label">\#(label)</span> <span class="stat-value">\#(value)</span>"#
    }

    /// The overview card of `app`.
    static func card(_ text: String, app: String) -> String? {
        guard let start = text.range(of: #"data-app="\#(app)""#) else { return nil }
        guard let end = text.range(of: "</article>", range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.lowerBound..<end.lowerBound])
    }
}
