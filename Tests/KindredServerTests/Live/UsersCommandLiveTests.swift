@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// `kindred users list|show|disable|enable` on a database the server has written.
@Suite struct UsersCommandLiveTests {
    @Test func operatorsListShowAndDisableAccounts() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("kindred.sqlite").path
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
        let application = try await TestApplication(database: database)
        try await application.app.test(.router) { client in
            let ada = try await client.signUp("ada@example.com")
            let anonymous = try await client.anonymous(app: "pulse")
            let url = "sqlite:\(path)"

            let list = try runKindred(["users", "list", "--database-url", url, "--log-level", "error"])
            #expect(list.status == 0, "\(list.stderr)")
            let lines = list.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            #expect(lines.count == 2)
            #expect(lines.contains { $0.prefix(6) == [ada.user.id, "closer", "permanent", "password", "ada@example.com", "active"] })
            #expect(lines.contains { $0.prefix(6) == [anonymous.user.id, "pulse", "anonymous", "-", "-", "active"] })

            let pulseOnly = try runKindred(["users", "list", "--app", "pulse", "--database-url", url, "--log-level", "error"])
            #expect(pulseOnly.stdout.split(separator: "\n").count == 1)

            let show = try runKindred(["users", "show", ada.user.id, "--database-url", url, "--log-level", "error"])
            #expect(show.status == 0)
            let shown = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
            #expect(shown?["email"] as? String == "ada@example.com")
            #expect(shown?["liveSessions"] as? Int == 1)
            #expect(!show.stdout.contains("argon2"))

            let disable = try runKindred(["users", "disable", ada.user.id, "--database-url", url, "--log-level", "error"])
            #expect(disable.status == 0)
            #expect(disable.stdout == "disabled \(ada.user.id)\n")
            let me = try await client.call(.get, "/v1/me", token: ada.accessToken)
            #expect(me.errorCode == "session_revoked")
            #expect(try await client.logIn("ada@example.com").errorCode == "account_disabled")

            let enable = try runKindred(["users", "enable", ada.user.id, "--database-url", url, "--log-level", "error"])
            #expect(enable.status == 0)
            #expect(try await client.logIn("ada@example.com").status == .ok)

            let missing = try runKindred(["users", "show", "no-such-id", "--database-url", url, "--log-level", "error"])
            #expect(missing.status != 0)
            #expect(missing.stderr.contains("no account no-such-id"))
            let badApp = try runKindred(["users", "list", "--app", "myspace", "--database-url", url])
            #expect(badApp.status != 0)
            #expect(badApp.stderr.contains("unknown app \"myspace\""))
        }
        await database.close()
    }
}
