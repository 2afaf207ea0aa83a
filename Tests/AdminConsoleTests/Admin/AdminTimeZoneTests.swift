@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The operator's time zone: chosen on the operators page (IANA names only, CSRF-checked and
/// audited), stored with the operator, and every date of the console rendered in it.
@Suite struct AdminTimeZoneTests {
    /// 2030-01-15 12:00 UTC: winter, so Paris is GMT+1 and New York GMT-5.
    static let noon = Date(timeIntervalSince1970: 1_894_708_800)

    @Test func namesAreValidatedAndDatesCarryTheAbbreviation() throws {
        #expect(AdminTimeZone(name: "UTC") == .utc)
        let paris = try #require(AdminTimeZone(name: "Europe/Paris"))
        #expect(paris.text(Self.noon) == "2030-01-15 13:00 GMT+1")
        #expect(try #require(AdminTimeZone(name: "America/New_York")).text(Self.noon) == "2030-01-15 07:00 GMT-5")
        #expect(try #require(AdminTimeZone(name: "Asia/Kolkata")).text(Self.noon) == "2030-01-15 17:30 GMT+5:30")
        #expect(AdminTimeZone.utc.text(Self.noon) == "2030-01-15 12:00 UTC")
        for bad in ["", "GMT+1", "+0100", "Mars/Olympus_Mons", "europe/paris", String(repeating: "A", count: 100)] {
            #expect(AdminTimeZone(name: bad) == nil, "\(bad)")
        }
        #expect(AdminTimeZone.stored(nil) == .utc)
        #expect(AdminTimeZone.stored("No/Longer_Known") == .utc)
        #expect(AdminTimeZone.stored("Europe/Paris") == paris)
        #expect(AdminTimeZone.choices.first == "UTC")
        #expect(AdminTimeZone.choices.contains("Europe/Paris"))
    }

    @Test(arguments: Backend.all) func theOperatorsZoneIsStoredAuditedAndUsedOnEveryPage(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend, clock: TestClock(start: Self.noon)) { app, client in
            let browser = try await client.adminLogIn()
            let operators = String(buffer: try await client.adminGet("/admin/operators", cookie: browser.cookie).body)
            #expect(operators.contains(#"<span id="current-zone">UTC</span> (the console's default)."#))
            #expect(operators.contains(#"<option value="" selected>Console default (UTC)</option>"#))
            #expect(operators.contains("<option>UTC</option>"))
            #expect(operators.contains("<option>Europe/Paris</option>"))
            let before = String(buffer: try await client.adminGet("/admin/audit", cookie: browser.cookie).body)
            #expect(before.contains(#"<time datetime="2030-01-15T12:00:00Z">2030-01-15 12:00 UTC</time>"#))

            let saved = try await client.adminPost(
                "/admin/operators/time-zone", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("csrf", browser.csrf), ("zone", "Europe/Paris")]
            )
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/admin/operators")
            let after = String(buffer: try await client.adminGet("/admin/operators", cookie: browser.cookie).body)
            #expect(after.contains("Dates are now shown in Europe/Paris (GMT+1)."))
            #expect(after.contains(#"<span id="current-zone">Europe/Paris</span>."#))
            #expect(after.contains("<option selected>Europe/Paris</option>"))
            #expect(after.contains(#"<option value="">Console default (UTC)</option>"#))
            #expect(after.contains("<option>UTC</option>"))
            // The operator's own row, on the same page, in their zone; the attribute stays UTC.
            #expect(after.contains(#"<time datetime="2030-01-15T12:00:00Z">2030-01-15 13:00 GMT+1</time>"#))
            let audit = String(buffer: try await client.adminGet("/admin/audit", cookie: browser.cookie).body)
            #expect(audit.contains(#"<time datetime="2030-01-15T12:00:00Z">2030-01-15 13:00 GMT+1</time>"#))
            #expect(!audit.contains("12:00 UTC"))
            let stored = try await app.database.sql.select().column("time_zone").from("kindred_admin_operators")
                .where("email", .equal, AdminTestApp.email).first()?.decode(column: "time_zone", as: String?.self)
            #expect(stored == "Europe/Paris")
            let entries = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 10).entries
            #expect(entries.filter { $0.action == "operator.time-zone" }.map(\.target) == [AdminTestApp.email])

            // A new login keeps the zone (it is the operator's, not the session's).
            let again = try await client.adminLogIn()
            let users = String(buffer: try await client.adminGet("/admin/audit", cookie: again.cookie).body)
            #expect(users.contains("2030-01-15 13:00 GMT+1"))

            // UTC chosen is stored as such; back to the console's default is NULL.
            for (zone, expected) in [("UTC", "UTC"), ("", nil)] as [(String, String?)] {
                _ = try await client.adminPost(
                    "/admin/operators/time-zone", cookies: [AdminTestCookies.session: again.cookie],
                    fields: [("csrf", again.csrf), ("zone", zone)]
                )
                let stored = try await app.database.sql.select().column("time_zone").from("kindred_admin_operators")
                    .where("email", .equal, AdminTestApp.email).first()?.decode(column: "time_zone", as: String?.self)
                #expect(stored == expected)
            }
            let reset = String(buffer: try await client.adminGet("/admin/operators", cookie: again.cookie).body)
            #expect(reset.contains("Dates now follow the console default time zone, UTC (UTC)."))
        }
    }

    @Test(arguments: Backend.all) func anOperatorsChoiceLeavesTheOthersOnTheConsolesDefault(backend: Backend) async throws {
        var settings = AdminSettings()
        settings.defaultTimeZone = "America/New_York"
        try await AdminTestApp.run(on: backend, settings: settings, clock: TestClock(start: Self.noon)) { app, client in
            let second = "second-ops@example.com"
            _ = try await app.operators.create(email: second, password: AdminTestApp.password)
            let first = try await client.adminLogIn()
            let other = try await client.adminLogIn(email: second)
            let newYork = #"<time datetime="2030-01-15T12:00:00Z">2030-01-15 07:00 GMT-5</time>"#
            let paris = #"<time datetime="2030-01-15T12:00:00Z">2030-01-15 13:00 GMT+1</time>"#
            // Neither has chosen: both see the console's default.
            for browser in [first, other] {
                let page = String(buffer: try await client.adminGet("/admin/operators", cookie: browser.cookie).body)
                #expect(page.contains(#"<span id="current-zone">America/New_York</span> (the console's default)."#))
                #expect(page.contains(#"<option value="" selected>Console default (America/New_York)</option>"#))
                #expect(page.contains(newYork))
            }

            let saved = try await client.adminPost(
                "/admin/operators/time-zone", cookies: [AdminTestCookies.session: other.cookie],
                fields: [("csrf", other.csrf), ("zone", "Europe/Paris")]
            )
            #expect(saved.status == .seeOther)
            let chosen = String(buffer: try await client.adminGet("/admin/audit", cookie: other.cookie).body)
            #expect(chosen.contains(paris))
            #expect(!chosen.contains("07:00 GMT-5"))
            let unchanged = String(buffer: try await client.adminGet("/admin/audit", cookie: first.cookie).body)
            #expect(unchanged.contains(newYork))
            #expect(!unchanged.contains("13:00 GMT+1"))
            let zones = try await app.database.sql.select().columns("email", "time_zone").from("kindred_admin_operators")
                .orderBy("email").all().map { (try $0.decode(column: "email", as: String.self), try $0.decode(column: "time_zone", as: String?.self)) }
            #expect(zones.map(\.0) == [AdminTestApp.email, second] && zones.map(\.1) == [nil, "Europe/Paris"])

            // Back to the default: New York again, stored as NULL, audited.
            _ = try await client.adminPost(
                "/admin/operators/time-zone", cookies: [AdminTestCookies.session: other.cookie],
                fields: [("csrf", other.csrf), ("zone", "")]
            )
            let back = String(buffer: try await client.adminGet("/admin/operators", cookie: other.cookie).body)
            #expect(back.contains("Dates now follow the console default time zone, America/New_York (GMT-5)."))
            #expect(back.contains(newYork))
            let entries = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 10).entries
            #expect(entries.filter { $0.action == "operator.time-zone" }.map(\.target) == [second, second])
        }
    }

    @Test func anUnknownZoneOrAMissingTokenChangesNothing() async throws {
        try await AdminTestApp.run { app, client in
            let browser = try await client.adminLogIn()
            let unknown = try await client.adminPost(
                "/admin/operators/time-zone", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("csrf", browser.csrf), ("zone", "GMT+1")]
            )
            #expect(unknown.status == .badRequest)
            #expect(String(buffer: unknown.body).contains("is not a time zone: choose UTC or an IANA name such as Europe/Paris"))
            let forged = try await client.adminPost(
                "/admin/operators/time-zone", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("zone", "Europe/Paris")]
            )
            #expect(forged.status == .forbidden)
            let anonymous = try await client.adminPost(
                "/admin/operators/time-zone", cookies: [:], fields: [("csrf", browser.csrf), ("zone", "Europe/Paris")]
            )
            #expect(anonymous.status == .forbidden)
            let stored = try await app.database.sql.select().column("time_zone").from("kindred_admin_operators")
                .where("email", .equal, AdminTestApp.email).first()?.decode(column: "time_zone", as: String?.self)
            #expect(stored == nil)
            let entries = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 10).entries
            #expect(entries.filter { $0.action == "operator.time-zone" }.isEmpty)
        }
    }
}
