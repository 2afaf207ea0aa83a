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

/// The users pages: search by id, e-mail or name; a user's page; disable and enable; revoking
/// sessions; deletion with a typed confirmation. Every action CSRF-checked and audited.
@Suite struct AdminUsersTests {
    @Test(arguments: Backend.all) func searchFindsAnAccountByIdEmailOrName(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            let alice = try await client.signUp("alice@example.com", app: "closer")
            let guest = try await client.anonymous(app: "exeraser")
            try await app.database.sql.update("kindred_users").set("display_name", to: "Alice <Liddell>")
                .where("id", .equal, alice.user.id).run()
            let browser = try await client.adminLogIn()

            let empty = String(buffer: try await client.adminGet("/admin/users", cookie: browser.cookie).body)
            #expect(empty.contains("Search by id, e-mail or name, or choose an app to list its newest accounts."))
            #expect(!empty.contains(#"<table id="users">"#))

            for query in ["ALICE@example.com", alice.user.id, "ali", "alice"] {
                let page = try await client.adminGet(AdminViews.link("/admin/users", [("q", query)]), cookie: browser.cookie)
                let text = String(buffer: page.body)
                #expect(text.contains(#"<a href="/admin/users/\#(alice.user.id)">\#(alice.user.id)</a>"#), "\(query)")
                #expect(text.contains("<td>alice@example.com</td><td>Alice &lt;Liddell&gt;</td>"), "\(query)")
            }
            let nobody = String(buffer: try await client.adminGet("/admin/users?q=nobody%40example.com", cookie: browser.cookie).body)
            #expect(nobody.contains("No account matches."))
            // Another app's filter leaves Alice out; Ex-Eraser's accounts have no e-mail to show.
            let filtered = String(buffer: try await client.adminGet("/admin/users?q=alice%40example.com&app=pulse", cookie: browser.cookie).body)
            #expect(filtered.contains("No account matches."))
            let newest = String(buffer: try await client.adminGet("/admin/users?app=exeraser", cookie: browser.cookie).body)
            #expect(newest.contains(#"<a href="/admin/users/\#(guest.user.id)">"#))
            #expect(newest.contains("<td>exeraser</td><td>—</td>"))
            #expect(!newest.contains(alice.user.id))
        }
    }

    @Test func theUsersPageShowsProvidersSessionsTokensAndDataButNoContent() async throws {
        try await AdminTestApp.run { app, client in
            let alice = try await client.signUp("alice@example.com", app: "closer")
            let now = app.clock.now().millisecondsSince1970
            try await app.database.sql.insert(into: "kindred_push_tokens")
                .columns("id", "user_id", "app", "transport", "token", "device_id", "created_at", "updated_at")
                .values(
                    SQLBind("t1"), SQLBind(alice.user.id), SQLBind("closer"), SQLBind("apns"), SQLBind("abcdef0123456789secret"),
                    SQLBind("device-1"), SQLBind(now), SQLBind(now)
                ).run()
            let browser = try await client.adminLogIn()
            let page = try await client.adminGet("/admin/users/\(alice.user.id)", cookie: browser.cookie)
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            #expect(text.contains(#"<dd id="providers">password</dd>"#))
            #expect(text.contains(#"<dd id="user-email">alice@example.com</dd>"#))
            #expect(text.contains(#"<dd id="live-sessions">1</dd>"#))
            #expect(text.contains("<td>closer</td><td>apns</td><td class=\"mono\">device-1</td><td class=\"mono\">abcdef01…</td>"))
            #expect(!text.contains("secret"))
            #expect(text.contains(#"<td>notifications</td><td class="mono">kindred_push_tokens</td><td class="num">1</td>"#))
            #expect(text.contains(#"<button type="submit" id="disable">"#))
            let missing = try await client.adminGet("/admin/users/nobody", cookie: browser.cookie)
            #expect(missing.status == .notFound)
        }
    }

    @Test func disableEnableAndRevokeAreAuditedAndTakeEffect() async throws {
        try await AdminTestApp.run { app, client in
            let alice = try await client.signUp("alice@example.com", app: "closer")
            let second = try await client.logIn("alice@example.com").decode(SessionBody.self)
            let browser = try await client.adminLogIn()
            let session = [AdminTestCookies.session: browser.cookie]
            let base = "/admin/users/\(alice.user.id)"
            let sessionIDs = try await app.database.sql.select().column("id").from("kindred_sessions")
                .where("user_id", .equal, alice.user.id).orderBy("created_at").all()
                .map { try $0.decode(column: "id", as: String.self) }
            #expect(sessionIDs.count == 2)

            let revoke = try await client.adminPost(
                base + "/revoke", cookies: session, fields: [("csrf", browser.csrf), ("session", sessionIDs[0])]
            )
            #expect(revoke.status == .seeOther)
            #expect(revoke.headers[.location] == base)
            let afterRevoke = String(buffer: try await client.adminGet(base, cookie: browser.cookie).body)
            #expect(afterRevoke.contains(#"<p class="notice" role="status" id="notice">Revoked session \#(sessionIDs[0]).</p>"#))
            #expect(afterRevoke.contains(#"<dd id="live-sessions">1</dd>"#))
            #expect(try await client.refresh(second.refreshToken).status == .ok)
            let again = try await client.adminPost(
                base + "/revoke", cookies: session, fields: [("csrf", browser.csrf), ("session", sessionIDs[0])]
            )
            #expect(again.status == .notFound)

            let all = try await client.adminPost(base + "/revoke-all", cookies: session, fields: [("csrf", browser.csrf)])
            #expect(all.status == .seeOther)
            #expect(String(buffer: try await client.adminGet(base, cookie: browser.cookie).body).contains("Revoked 1 sessions."))

            let disable = try await client.adminPost(base + "/disable", cookies: session, fields: [("csrf", browser.csrf)])
            #expect(disable.status == .seeOther)
            #expect(try await client.logIn("alice@example.com").status != .ok)
            let disabledPage = String(buffer: try await client.adminGet(base, cookie: browser.cookie).body)
            #expect(disabledPage.contains("Disabled the account; its sessions were revoked."))
            #expect(disabledPage.contains(#"<button type="submit" id="enable">"#))
            let enable = try await client.adminPost(base + "/enable", cookies: session, fields: [("csrf", browser.csrf)])
            #expect(enable.status == .seeOther)
            #expect(try await client.logIn("alice@example.com").status == .ok)

            let actions = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 50).entries
                .filter { $0.target == alice.user.id }.map(\.action).sorted()
            #expect(actions == ["user.disable", "user.enable", "user.revoke", "user.revoke-all"])
        }
    }

    @Test func deletionNeedsTheTypedIdAndUsesTheAccountsDeletion() async throws {
        try await AdminTestApp.run { app, client in
            let alice = try await client.signUp("alice@example.com", app: "closer")
            let browser = try await client.adminLogIn()
            let session = [AdminTestCookies.session: browser.cookie]
            let base = "/admin/users/\(alice.user.id)"
            let wrong = try await client.adminPost(base + "/delete", cookies: session, fields: [("csrf", browser.csrf), ("confirm", "yes")])
            #expect(wrong.status == .badRequest)
            #expect(String(buffer: wrong.body).contains("id to confirm the deletion; nothing was deleted"))
            #expect(try await AccountAdministration(database: app.database).show(id: alice.user.id) != nil)

            let deleted = try await client.adminPost(
                base + "/delete", cookies: session, fields: [("csrf", browser.csrf), ("confirm", alice.user.id)]
            )
            #expect(deleted.status == .seeOther)
            #expect(deleted.headers[.location] == "/admin/users")
            #expect(try await AccountAdministration(database: app.database).show(id: alice.user.id) == nil)
            #expect(try await client.refresh(alice.refreshToken).status == .unauthorized)
            let list = String(buffer: try await client.adminGet("/admin/users", cookie: browser.cookie).body)
            #expect(list.contains("Deleted user \(alice.user.id) and their data."))
            let audit = String(buffer: try await client.adminGet("/admin/audit", cookie: browser.cookie).body)
            #expect(audit.contains(#"<td class="mono">user.delete</td><td class="mono">\#(alice.user.id)</td>"#))
        }
    }

    @Test func userActionsNeedTheSessionsCSRFToken() async throws {
        try await AdminTestApp.run { app, client in
            let alice = try await client.signUp("alice@example.com", app: "closer")
            let browser = try await client.adminLogIn()
            let session = [AdminTestCookies.session: browser.cookie]
            for action in ["disable", "enable", "revoke-all", "delete"] {
                let path = "/admin/users/\(alice.user.id)/\(action)"
                let fields = [("confirm", alice.user.id)]
                let none = try await client.adminPost(path, cookies: session, fields: fields)
                #expect(none.status == .forbidden, "\(action)")
                let anonymous = try await client.adminPost(path, cookies: [:], fields: [("csrf", browser.csrf)] + fields)
                #expect(anonymous.status == .forbidden, "\(action)")
            }
            #expect(try await AccountAdministration(database: app.database).show(id: alice.user.id)?.disabledAt == nil)
            let anonymousPage = try await client.adminGet("/admin/users/\(alice.user.id)")
            #expect(anonymousPage.status == .seeOther)
            let bearer = try await client.adminGet("/admin/users", headers: [.authorization: "Bearer \(alice.accessToken)"])
            #expect(bearer.headers[.location] == "/admin/login")
        }
    }
}
