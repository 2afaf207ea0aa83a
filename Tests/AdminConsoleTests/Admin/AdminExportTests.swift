@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import NIOCore
import Testing

/// The user page's export button (`POST /admin/users/{user}/export`): the account's export as
/// its owner gets it, as a JSON download; CSRF-checked and audited.
@Suite struct AdminExportTests {
    /// A JSON document's object, or nil.
    static func object(_ buffer: ByteBuffer) throws -> [String: Any]? {
        try JSONSerialization.jsonObject(with: Data(String(buffer: buffer).utf8)) as? [String: Any]
    }

    @Test(arguments: Backend.all) func theExportIsTheOwnersExportAsADownload(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { app, client in
            let alice = try await client.signUp("export-alice@example.com", app: "closer")
            let browser = try await client.adminLogIn()
            let page = String(buffer: try await client.adminGet("/admin/users/\(alice.user.id)", cookie: browser.cookie).body)
            #expect(page.contains(#"<form method="post" action="/admin/users/\#(alice.user.id)/export" class="inline"><input type="hidden" name="csrf" value="\#(browser.csrf)"><button type="submit" id="export">Export data (JSON)</button></form>"#))

            let download = try await client.adminPost(
                "/admin/users/\(alice.user.id)/export", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("csrf", browser.csrf)]
            )
            #expect(download.status == .ok)
            #expect(download.headers[.contentType] == "application/json; charset=utf-8")
            #expect(download.headers[.contentDisposition] == #"attachment; filename="kindred-user-\#(alice.user.id).json""#)
            #expect(download.headers[.cacheControl] == "no-store")
            let exported = try #require(try Self.object(download.body))
            let own = try await client.call(.get, "/v1/me/export", app: "closer", token: alice.accessToken)
            #expect(own.status == .ok)
            let owners = try #require(try Self.object(own.body))
            // The same account and data as the owner's own export (only the export time differs).
            let exportedUser = try #require(exported["user"] as? [String: Any])
            let ownersUser = try #require(owners["user"] as? [String: Any])
            // Compared as sorted-key JSON (NSDictionary's isEqual tells `false` from `0` on Linux).
            func canonical(_ value: Any?) throws -> Data {
                try JSONSerialization.data(withJSONObject: try #require(value as? [String: Any]), options: [.sortedKeys])
            }
            #expect(try canonical(exportedUser) == canonical(ownersUser), "\(exportedUser) vs \(ownersUser)")
            #expect(try canonical(exported["data"]) == canonical(owners["data"]))
            #expect((exported["user"] as? [String: Any])?["id"] as? String == alice.user.id)
            #expect(exported["exportedAt"] is String)

            let audit = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 10).entries
            #expect(audit.filter { $0.action == "user.export" }.map(\.target) == [alice.user.id])
            // No notice is left behind: the download answered the form.
            let after = String(buffer: try await client.adminGet("/admin/users/\(alice.user.id)", cookie: browser.cookie).body)
            #expect(!after.contains(#"id="notice""#))
        }
    }

    @Test func theExportNeedsTheSessionsCSRFTokenAndAnAccount() async throws {
        try await AdminTestApp.run { app, client in
            let alice = try await client.signUp("export-bob@example.com", app: "closer")
            let browser = try await client.adminLogIn()
            let forged = try await client.adminPost(
                "/admin/users/\(alice.user.id)/export", cookies: [AdminTestCookies.session: browser.cookie], fields: []
            )
            #expect(forged.status == .forbidden)
            #expect(!String(buffer: forged.body).contains("export-bob@example.com"))
            let anonymous = try await client.adminPost(
                "/admin/users/\(alice.user.id)/export", cookies: [:], fields: [("csrf", browser.csrf)]
            )
            #expect(anonymous.status == .forbidden)
            let unknown = try await client.adminPost(
                "/admin/users/no-such-user/export", cookies: [AdminTestCookies.session: browser.cookie],
                fields: [("csrf", browser.csrf)]
            )
            #expect(unknown.status == .notFound)
            let audit = try await AdminAuditLog(database: app.database, clock: app.clock).page(offset: 0, limit: 10).entries
            #expect(audit.filter { $0.action == "user.export" }.isEmpty)
        }
    }
}
