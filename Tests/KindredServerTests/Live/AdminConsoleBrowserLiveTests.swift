@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// The admin console in a real browser: `kindred admin create` makes an operator, a live
/// `kindred serve` (reading RevenueCat from a `FakeRevenueCat`) receives a RevenueCat purchase for
/// a Pulse user, and Selenium driving Debian's headless chromium logs in, searches, opens the
/// user's detail, syncs it with each provider choice and reads the redacted provider answers,
/// runs the user-fields backfill's dry run through its CSRF-protected form, and checks that a form
/// without its CSRF token is refused (admin_console_browser.py).
@Suite struct AdminConsoleBrowserLiveTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("admin_console_browser.py").path
    static let webhookAuthorization = "Bearer admin-browser-test"
    static let revenueCatKey = "sk_rc_admin_browser_test"
    /// Personal data the fake RevenueCat holds for the user: the console must never show it.
    static let subscriberEmail = "ada.rc-only@example.net"
    static let subscriberName = "Ada Lovelace-RC"

    /// Where the screenshots are kept after the run (each page at 1280 and 390 pixels wide):
    /// `$KINDRED_TEST_ARTIFACTS/admin-console`, else `kindred-test-artifacts/admin-console` in
    /// the system's temporary folder.
    static var screenshotFolder: URL {
        let root = ProcessInfo.processInfo.environment["KINDRED_TEST_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("kindred-test-artifacts")
        return root.appendingPathComponent("admin-console")
    }

    /// Why the browser test cannot run here, or nil when chromium, chromedriver and Selenium are present.
    static var missingBrowser: String? {
        for path in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is not installed (scripts/test installs chromium and chromium-driver)"
        }
        let selenium = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import selenium"])
        return selenium?.status == 0 ? nil : "Python's selenium is not installed (scripts/test installs it)"
    }

    @Test(.timeLimit(.minutes(5)))
    func anOperatorSearchesOpensADetailAndDryRunsABackfillInABrowser() async throws {
        if let missing = Self.missingBrowser {
            if ChildProcess.isCI { Issue.record(Comment(rawValue: missing)) }
            return
        }
        let folder = try TemporaryDirectory()
        let databaseURL = "sqlite:\(folder.url.path)/kindred.sqlite"
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
            .merging(LiveServer.testEnvironment) { $1 }
        environment["KINDRED_PASSWORD"] = "operator passphrase"
        let created = try ChildProcess.run(
            ChildProcess.kindredExecutable.path,
            ["admin", "create", "--email", "Ops@Example.com", "--database-url", databaseURL], environment: environment
        )
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.text.hasPrefix("created operator ops@example.com ("))
        let again = try ChildProcess.run(
            ChildProcess.kindredExecutable.path,
            ["admin", "create", "--email", "ops@example.com", "--database-url", databaseURL], environment: environment
        )
        #expect(again.status != 0)
        #expect(again.stderr.contains("an operator with the e-mail ops@example.com already exists"))

        let fake = FakeRevenueCat()
        let (run, stopped, userID) = try await fake.run { base in
            let server = try await LiveServer(
                databaseURL: databaseURL,
                environment: [
                    "KINDRED_REVENUECAT_WEBHOOK_AUTH": Self.webhookAuthorization, "KINDRED_REVENUECAT_BASE_URL": base.absoluteString,
                    "KINDRED_REVENUECAT_PROJECTS": "proj1=pulse", "KINDRED_REVENUECAT_API_KEY": Self.revenueCatKey,
                ]
            )
            let (userID, expiresAt) = try await Self.seedPulseSubscriber(port: server.port)
            // RevenueCat holds the purchase the webhook delivered (same store id, same end), so a
            // sync appends nothing, and personal attributes its answers must never show.
            fake.subscribe(customer: userID, id: "sub-browser", endsAt: expiresAt, storeIdentifier: "1000000000000001")
            fake.setAttributes(["$email": Self.subscriberEmail, "$displayName": Self.subscriberName], customer: userID)
            let screenshots = Self.screenshotFolder
            try? FileManager.default.removeItem(at: screenshots)
            let run = try ChildProcess.run(
                "/usr/bin/env",
                ["python3", Self.script, server.url.absoluteString, "ops@example.com", "-", "browser-tester", userID, screenshots.path],
                environment: ProcessInfo.processInfo.environment.merging([
                    "ADMIN_PASSWORD": "operator passphrase", "RC_PERSONAL": "\(Self.subscriberEmail)\n\(Self.subscriberName)",
                ]) { $1 }
            )
            return (run, await server.stop(), userID)
        }
        let screenshots = Self.screenshotFolder
        #expect(run.status == 0, "browser test failed:\n\(run.text)\n\(run.stderr)")
        #expect(run.text.hasSuffix("PASSED\n"), "\(run.text)")
        #expect(run.text.contains("ok: the form without its CSRF token is refused"))
        #expect(run.text.contains("ok: a reload shows the detail page without syncing again"))
        #expect(run.text.contains("ok: a reload shows the table without applying again"))
        #expect(run.text.contains("ok: the audit log lists job.run"))
        #expect(run.text.contains("ok: the RevenueCat answers show the customer read: GET /v2/projects/proj1/customers/\(userID) -> 200"))
        #expect(run.text.contains("ok: the RevenueCat subscriber attributes are shown as [redacted]"))
        #expect(run.text.contains("ok: the subscriber's e-mail and name never appear in the page source"))
        #expect(run.text.contains("ok: a Stripe-only sync leaves the RevenueCat answers as they were"))
        #expect(run.text.contains("ok: a RevenueCat-only sync replaces the RevenueCat answers"))
        // Two syncs reached RevenueCat (both, then RevenueCat only; the Stripe-only one did not),
        // each reading the customer and its subscriptions with the project's key.
        let customerPath = "GET /v2/projects/proj1/customers/\(userID)"
        let requests = fake.requests
        #expect(requests.filter { $0 == "\(customerPath) Bearer \(Self.revenueCatKey)" }.count == 2, "\(requests)")
        #expect(requests.filter { $0 == "\(customerPath)/subscriptions Bearer \(Self.revenueCatKey)" }.count == 2, "\(requests)")
        for page in ["overview", "users", "user", "jobs", "queues", "push", "realtime", "operators", "audit"] {
            for width in [1280, 390] {
                let file = screenshots.appendingPathComponent("\(page)-\(width).png")
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                #expect(size > 1000, "\(file.path)")
            }
        }
        #expect(stopped.status == 0)
        #expect(!stopped.stderr.contains("unhandled error"), "\(stopped.stderr)")
    }

    /// Signs up a Pulse user named browser-tester, delivers a RevenueCat purchase for them, waits
    /// until it is applied, then renames them (so the user-fields backfill has a change to report).
    /// - Returns: the user's id and when the purchase ends (Unix seconds).
    static func seedPulseSubscriber(port: Int) async throws -> (userID: String, expiresAt: Int64) {
        let signUp = try json(
            port: port, "POST", "/v1/auth/signup", body: #"{"email":"browser-tester@example.com","password":"correct horse"}"#
        )
        let token = try #require(signUp["accessToken"] as? String)
        let user = try #require((signUp["user"] as? [String: Any])?["id"] as? String)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let event = """
            {"api_version":"1.0","event":{"id":"evt-browser-1","type":"INITIAL_PURCHASE","app_user_id":"\(user)",\
            "product_id":"pc_1m","entitlement_ids":["plus"],"period_type":"NORMAL","environment":"PRODUCTION",\
            "store":"APP_STORE","original_transaction_id":"1000000000000001","transaction_id":"1000000000000001",\
            "event_timestamp_ms":\(now),"purchased_at_ms":\(now),"expiration_at_ms":\(now + 30 * 86_400_000)}}
            """
        let answer = try LoopbackHTTP.exchange(
            port: port,
            head: "POST /v1/webhooks/revenuecat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(webhookAuthorization)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(event.utf8.count)\r\nConnection: close\r\n\r\n",
            body: event
        )
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let state = try json(port: port, "GET", "/v1/me/subscription", token: token)
            if state["state"] as? String == "active" { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        _ = try json(port: port, "PATCH", "/v1/me", token: token, body: #"{"displayName":"browser-tester"}"#)
        return (user, (now + 30 * 86_400_000) / 1000)
    }

    /// One JSON exchange with the Pulse app's API.
    static func json(port: Int, _ method: String, _ path: String, token: String? = nil, body: String = "") throws -> [String: Any] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: pulse\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if !body.isEmpty { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        let answer = try LoopbackHTTP.exchange(port: port, head: head + "\r\n", body: body)
        let text = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
