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

/// The audit log (append-only, paged, no edit route) and the operators page (list, create, disable).
@Suite struct AdminAuditTests {
    @Test(arguments: Backend.all) func everyFormActionIsRecordedAndListedNewestFirstWithPaging(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            let browser = try await client.adminLogIn()
            let session = [AdminTestCookies.session: browser.cookie]
            for _ in 0..<55 {
                app.clock.advance(by: .seconds(1))
                let redrive = try await client.adminPost("/admin/dead-letters/redrive", cookies: session, fields: [("csrf", browser.csrf), ("all", "1")])
                #expect(redrive.status == .seeOther)
            }
            app.clock.advance(by: .seconds(1))
            _ = try await client.adminPost("/admin/subscriptions/user-1/refresh", cookies: session, fields: [("csrf", browser.csrf)])
            let first = String(buffer: try await client.adminGet("/admin/audit", cookie: browser.cookie).body)
            // 55 re-drives, the refresh and the login.
            #expect(first.contains("57 entries · page 1 of 2."))
            #expect(first.contains(#"<td>ops@example.com</td><td class="mono">subscription.refresh</td><td class="mono">user-1</td><td class="wrap">Recomputed.</td>"#))
            #expect(first.contains(#"<a href="/admin/audit?page=2" id="next">"#))
            #expect(first.components(separatedBy: "<tr><td><time").count - 1 == 50)
            let second = String(buffer: try await client.adminGet("/admin/audit?page=2", cookie: browser.cookie).body)
            #expect(second.contains(#"<td class="mono">login</td><td class="mono">—</td><td class="wrap">Logged in.</td>"#))
            #expect(second.components(separatedBy: "<tr><td><time").count - 1 == 7)
            #expect(second.contains(#"<a href="/admin/audit?page=1" id="previous">"#))

            // No route edits or deletes an entry.
            for method in [HTTPRequest.Method.post, .put, .delete, .patch] {
                let response = try await client.execute(
                    uri: "/admin/audit", method: method,
                    headers: [.cookie: "\(AdminTestCookies.session)=\(browser.cookie)", .contentType: "application/x-www-form-urlencoded"],
                    body: .init(string: "csrf=\(browser.csrf)")
                )
                #expect(response.status == .notFound || response.status == .methodNotAllowed, "\(method)")
            }
            let count = try await app.database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("kindred_admin_audit").first()?.decode(column: "n", as: Int.self)
            #expect(count == 57)
        }
    }

    @Test func operatorsAreListedCreatedAndDisabled() async throws {
        try await AdminTestApp.run { app, client in
            let browser = try await client.adminLogIn()
            let session = [AdminTestCookies.session: browser.cookie]
            let page = String(buffer: try await client.adminGet("/admin/operators", cookie: browser.cookie).body)
            #expect(page.contains(#"<tr data-operator="ops@example.com"><td>ops@example.com <span class="hint">(you)</span></td>"#))

            let weak = try await client.adminPost(
                "/admin/operators", cookies: session,
                fields: [("csrf", browser.csrf), ("email", "second@example.com"), ("password", "short")]
            )
            #expect(weak.status == .badRequest)
            #expect(String(buffer: weak.body).contains(#"<p class="error" id="error" role="alert">"#))
            #expect(try await app.operators.list().count == 1)

            let created = try await client.adminPost(
                "/admin/operators", cookies: session,
                fields: [("csrf", browser.csrf), ("email", "Second@Example.com"), ("password", "a long passphrase")]
            )
            #expect(created.status == .seeOther)
            let second = try #require(try await app.operators.list().first { $0.email == "second@example.com" })
            let secondLogin = try await client.adminLogInResponse(email: "second@example.com", password: "a long passphrase")
            #expect(secondLogin.status == .seeOther)
            let secondCookie = try #require(secondLogin.cookieValue(AdminTestCookies.session))

            let taken = try await client.adminPost(
                "/admin/operators", cookies: session,
                fields: [("csrf", browser.csrf), ("email", "second@example.com"), ("password", "a long passphrase")]
            )
            #expect(taken.status == .badRequest)
            #expect(String(buffer: taken.body).contains("an operator with the e-mail second@example.com already exists"))

            let disable = try await client.adminPost(
                "/admin/operators/\(second.id)/disable", cookies: session, fields: [("csrf", browser.csrf)]
            )
            #expect(disable.status == .seeOther)
            let disabledPage = String(buffer: try await client.adminGet("/admin/operators", cookie: browser.cookie).body)
            #expect(disabledPage.contains("Disabled second@example.com; their sessions ended."))
            #expect(try await client.adminGet("/admin", cookie: secondCookie).status == .seeOther)

            let me = try #require(try await app.operators.list().first { $0.email == AdminTestApp.email })
            let selfDisable = try await client.adminPost("/admin/operators/\(me.id)/disable", cookies: session, fields: [("csrf", browser.csrf)])
            #expect(selfDisable.status == .badRequest)
            let forged = try await client.adminPost("/admin/operators/\(second.id)/enable", cookies: session, fields: [])
            #expect(forged.status == .forbidden)
            let enable = try await client.adminPost("/admin/operators/\(second.id)/enable", cookies: session, fields: [("csrf", browser.csrf)])
            #expect(enable.status == .seeOther)
            #expect(try await app.operators.list().allSatisfy { $0.disabledAt == nil })
            let actions = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 50).entries
                .filter { $0.action.hasPrefix("operator.") }.map(\.action).sorted()
            #expect(actions == ["operator.create", "operator.disable", "operator.enable"])
        }
    }
}
