@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KindredAPI
import KindredStore
import KindredTestSupport
import Logging
import NIOCore
import Prometheus
import Synchronization
import Testing

/// The server's router with the admin console, on a fresh database, for `app.test(.router)` tests.
struct AdminTestApp {
    let database: Database
    let clock: TestClock
    let platform: Platform
    let operators: AdminOperators
    let directory: FakeSubscriptionDirectory?
    /// The server's realtime hub (not running: events are delivered from memory after commit;
    /// with `webSockets`, running as the application's service).
    let realtime: RealtimeHub
    /// The loopback port of a `webSockets` run (nil otherwise).
    var port: Int? = nil

    /// The operator every test logs in as.
    static let email = "ops@example.com"
    /// Their password.
    static let password = "operator password 1"

    /// Runs `body` against a router with one operator (`email`/`password`) on a fresh `backend`
    /// database; `testing: .live` serves it on a loopback socket (requests then have a peer address);
    /// `webSockets` serves it live with the realtime endpoint's upgrade and the hub running
    /// (`port` is then set, for `RealtimeProbe`).
    static func run(
        on backend: Backend = .sqlite, settings: AdminSettings = AdminSettings(),
        directory: FakeSubscriptionDirectory? = FakeSubscriptionDirectory(), clock: TestClock = TestClock(start: Date()),
        auth: AuthConfiguration = TestApplication.testAuth, testing: TestingSetup = .router, webSockets: Bool = false,
        _ body: @escaping @Sendable (AdminTestApp, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestDatabases.with(backend) { database in
            var quiet = Logger(label: "kindred.test")
            quiet.logLevel = .warning
            try await Migrator(ServerMigrations.all).migrate(database, logger: quiet)
            let platform = Platform(database: database, clock: clock, logger: quiet)
            let dependencies = Dependencies(
                database: database, apps: .developmentDefaults, metrics: PrometheusCollectorRegistry(),
                openAPIDocument: try OpenAPIDocument.load(), maxBodySize: 1 << 20, clock: clock,
                auth: auth, identity: UnavailableIdentityVerifier(), platform: platform
            )
            var domains = DomainSettings()
            domains.admin = settings
            domains.adminSubscriptions = directory
            let parts = try await buildServerParts(dependencies, settings: domains)
            let router = parts.router
            let operators = try AdminOperators(
                database: database, clock: clock, parameters: TestApplication.testAuth.passwordParameters
            )
            _ = try await operators.create(email: email, password: password)
            let harness = AdminTestApp(
                database: database, clock: clock, platform: platform, operators: operators, directory: directory,
                realtime: parts.realtime
            )
            if webSockets {
                let app = Application(
                    router: router, server: parts.serverBuilder,
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)), services: [parts.realtime], logger: quiet
                )
                try await app.test(.live) { client in
                    var live = harness
                    live.port = client.port
                    try await body(live, client)
                }
                return
            }
            try await Application(router: router, logger: quiet).test(testing) { client in
                try await body(harness, client)
            }
        }
    }
}

/// A signed-in console session as a test holds it.
struct AdminBrowser: Sendable {
    /// The session cookie's value.
    var cookie: String
    /// The session's CSRF token, read from a page's form.
    var csrf: String
}

extension TestResponse {
    /// The `Set-Cookie` header of cookie `name`, whole (attributes included).
    func setCookie(_ name: String) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }

    /// The value `Set-Cookie` gives cookie `name`.
    func cookieValue(_ name: String) -> String? {
        setCookie(name).map { String($0.dropFirst(name.count + 1).prefix { $0 != ";" }) }
    }

    /// The value of the first hidden `csrf` field of the page.
    var csrfField: String? {
        let text = String(buffer: body)
        guard let range = text.range(of: #"name="csrf" value=""#) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }
}

extension TestClientProtocol {
    /// A GET of a console page, with the session cookie when given.
    func adminGet(_ path: String, cookie: String? = nil, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if let cookie { headers[.cookie] = "\(AdminTestCookies.session)=\(cookie)" }
        return try await execute(uri: path, method: .get, headers: headers, body: nil)
    }

    /// A form POST to the console with the given cookies and fields.
    func adminPost(_ path: String, cookies: [String: String], fields: [(String, String)]) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
        return try await execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// Fetches the login form and posts `email`/`password` with its CSRF token.
    func adminLogInResponse(
        email: String = AdminTestApp.email, password: String = AdminTestApp.password
    ) async throws -> TestResponse {
        let form = try await adminGet("/admin/login")
        let token = try #require(form.cookieValue(AdminTestCookies.login))
        return try await adminPost(
            "/admin/login", cookies: [AdminTestCookies.login: token],
            fields: [("csrf", token), ("email", email), ("password", password)]
        )
    }

    /// Logs in as the test operator (or `email`) and reads the session's CSRF token from the subscriptions page.
    func adminLogIn(email: String = AdminTestApp.email, password: String = AdminTestApp.password) async throws -> AdminBrowser {
        let response = try await adminLogInResponse(email: email, password: password)
        #expect(response.status == .seeOther)
        let cookie = try #require(response.cookieValue(AdminTestCookies.session))
        let page = try await adminGet("/admin/subscriptions", cookie: cookie)
        #expect(page.status == .ok)
        return AdminBrowser(cookie: cookie, csrf: try #require(page.csrfField))
    }
}

/// The console's cookie names, as a browser sees them.
enum AdminTestCookies {
    static let session = "kindred_admin_session"
    static let login = "kindred_admin_login"
}

/// An in-memory subscription directory that records what the console asked of it.
final class FakeSubscriptionDirectory: AdminSubscriptionDirectory {
    /// The calls made, e.g. `backfill(user-fields, dryRun: true, user: nil)`.
    let calls = Mutex<[String]>([])
    /// The rows the table serves.
    let rows: [AdminSubscriptionRow]

    init(rows: [AdminSubscriptionRow] = FakeSubscriptionDirectory.sampleRows) {
        self.rows = rows
    }

    static let sampleRows: [AdminSubscriptionRow] = [
        AdminSubscriptionRow(
            subscriptionID: "user-1", userID: "user-1", username: "tester32", email: "tester32@example.com", platform: "web",
            planType: "pulsecheck-monthly", status: "active", active: "Active",
            latestExpiration: Date(timeIntervalSince1970: 1_893_456_000), doubleBilling: true
        ),
        AdminSubscriptionRow(
            subscriptionID: "user-2", userID: "user-2", username: "<script>alert(1)</script>", email: nil, platform: "ios",
            planType: "pulsecheck-annual", status: "expired", active: "Expired",
            latestExpiration: Date(timeIntervalSince1970: 1_700_000_000), doubleBilling: false
        ),
    ]

    func search(_ query: AdminSubscriptionQuery) async throws -> AdminSubscriptionPage {
        calls.withLock { $0.append("search(\(query.search ?? "-"), \(query.status ?? "-"), \(query.platform ?? "-"), \(query.offset))") }
        let matching = rows.filter { row in
            (query.status == nil || row.status == query.status) && (query.platform == nil || row.platform == query.platform)
                && (query.search.map { text in
                    [row.userID, row.username ?? "", row.email ?? "", row.planType ?? ""].contains { $0.contains(text) }
                } ?? true)
        }
        return AdminSubscriptionPage(rows: Array(matching.dropFirst(query.offset).prefix(query.limit)), total: matching.count)
    }

    func detail(userID: String) async throws -> AdminSubscriptionDetail? {
        guard let row = rows.first(where: { $0.userID == userID }) else { return nil }
        return AdminSubscriptionDetail(
            row: row, userID: userID, computedStatus: row.status, computedExpiration: row.latestExpiration, trialEnd: nil,
            plans: [
                AdminPlanEntry(
                    planType: row.planType ?? "", productID: "price_monthly", platform: row.platform ?? "web", provider: "stripe",
                    lineage: "sub_123", kind: "purchase", expiration: row.latestExpiration ?? Date(),
                    eventTime: Date(timeIntervalSince1970: 1_890_000_000), eventID: "evt_1", sandbox: false
                ),
            ],
            links: ["stripe: cus_1"], events: ["stripe evt_1 customer.subscription.created → appended"],
            rawResponses: [#"revenuecat at 2029-11-26T10:00:00Z: ok\#n[{"body":"<b>404</b>","method":"GET"}]"#]
        )
    }

    func refresh(userID: String) async throws -> Bool {
        calls.withLock { $0.append("refresh(\(userID))") }
        return rows.contains { $0.userID == userID }
    }

    func syncNow(userID: String, providers: AdminSyncProviders) async throws -> AdminSyncOutcome? {
        calls.withLock { $0.append(providers == .both ? "sync(\(userID))" : "sync(\(userID), \(providers.rawValue))") }
        return rows.contains { $0.userID == userID } ? AdminSyncOutcome(appended: 2, failedProviders: ["revenuecat"]) : nil
    }

    func backfill(_ kind: AdminBackfillKind, dryRun: Bool, userID: String?) async throws -> AdminBackfillReport {
        calls.withLock { $0.append("backfill(\(kind.rawValue), dryRun: \(dryRun), user: \(userID ?? "-"))") }
        return AdminBackfillReport(
            dryRun: dryRun, examined: rows.count,
            changes: [(userID: "user-2", summary: #"username: nil → "tester33""#)], failures: []
        )
    }

    func doubleBilled(limit: Int) async throws -> [AdminSubscriptionRow] {
        rows.filter(\.doubleBilling)
    }
}
