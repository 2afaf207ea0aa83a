import AdminConsole
import CloserServer
import BillingServer
import KindredServer
import KindredServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredTestSupport
import KindredAPI
import KindredStore
import Logging
import Prometheus
import Testing

/// An application on a private in-memory SQLite database, for `app.test(.router)` tests.
package struct TestApplication {
    package let database: Database
    package let metrics = PrometheusCollectorRegistry()
    package let clock: TestClock
    /// The jobs and work queue the router's domains registered on (drive with `worker.processAvailable()`).
    package let platform: Platform
    package let app: Application<RouterResponder<KindredRequestContext>>
    /// Billing's operator tools, as the server built them.
    package let billing: BillingAdministration
    /// The entitlement checks other domains use.
    package let entitlements: BillingEntitlements

    /// Account settings for tests: cheap Argon2id (m = 64 KiB, t = 1), sign-ups per address
    /// lifted to 10,000 (every router test's requests come from one address, `unknown`, and
    /// many tests sign up more than the default 20 accounts), everything else default.
    package static var testAuth: AuthConfiguration {
        var auth = AuthConfiguration()
        auth.passwordParameters = .init(memoryKiB: 64, iterations: 1, parallelism: 1)
        auth.signUpsPerAddressPerHour = 10_000
        return auth
    }

    /// Builds the router the server uses, with `maxBodySize`, `apps`, account settings, the
    /// identity verifier and Closer's settings as given, on `database` (a private in-memory
    /// SQLite one by default).
    package init(
        maxBodySize: Int = 1 << 20, apps: AppRegistry = .developmentDefaults,
        auth: AuthConfiguration = TestApplication.testAuth,
        identity: any IdentityVerifying = UnavailableIdentityVerifier(),
        clock: TestClock = TestClock(start: Date()),
        database: Database? = nil,
        pushTransports: PushTransports? = nil,
        billing: BillingSettings = BillingSettings(),
        closer: CloserSettings = CloserSettings(),
        directRoutes: Bool = true
    ) async throws {
        if let database {
            self.database = database
        } else {
            self.database = try await Database.open(DatabaseConfiguration(url: .sqliteMemory))
        }
        self.clock = clock
        var quiet = Logger(label: "kindred.test")
        quiet.logLevel = .warning
        try await Migrator(ServerMigrations.all).migrate(self.database, logger: quiet)
        let platform = Platform(database: self.database, clock: clock, logger: quiet)
        self.platform = platform
        var dependencies = Dependencies(
            database: self.database, apps: apps, metrics: metrics,
            openAPIDocument: try OpenAPIDocument.load(), maxBodySize: maxBodySize,
            clock: clock, auth: auth, identity: identity, platform: platform, pushTransports: pushTransports
        )
        var domains = DomainSettings()
        domains.billing = billing
        domains.closer = closer
        dependencies.directRoutes = directRoutes
        // As the server wires it: Closer's premium packs follow billing's entitlements.
        let parts = try await buildServerParts(dependencies, settings: domains)
        self.billing = parts.billing
        self.entitlements = parts.entitlements
        app = Application(router: parts.router, logger: quiet)
    }

    /// Runs `body` against the router (no socket), then closes the database.
    package func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        do {
            try await app.test(.router, body)
            await database.close()
        } catch {
            await database.close()
            throw error
        }
    }
}

extension TestApplication {
    /// The server's parts on `database` (migrated here) with the tests' defaults, for tests that
    /// serve them on a socket; `configure` adjusts the dependencies first.
    package static func serverParts(
        on database: Database, clock: TestClock = TestClock(start: Date()), logLevel: Logger.Level = .warning,
        configure: (inout Dependencies) -> Void = { _ in }
    ) async throws -> ServerParts {
        var quiet = Logger(label: "kindred.test")
        quiet.logLevel = logLevel
        try await Migrator(ServerMigrations.all).migrate(database, logger: quiet)
        var dependencies = Dependencies(
            database: database, apps: .developmentDefaults, metrics: PrometheusCollectorRegistry(),
            openAPIDocument: try OpenAPIDocument.load(), maxBodySize: 1 << 20, clock: clock,
            auth: testAuth, identity: UnavailableIdentityVerifier()
        )
        dependencies.logger = quiet
        configure(&dependencies)
        return try await buildServerParts(dependencies, settings: DomainSettings())
    }

    /// Runs `body` against a router on a fresh database of `backend` (SQLite file or PostgreSQL).
    package static func run(
        on backend: Backend,
        apps: AppRegistry = .developmentDefaults,
        auth: AuthConfiguration = TestApplication.testAuth,
        identity: any IdentityVerifying = UnavailableIdentityVerifier(),
        clock: TestClock = TestClock(start: Date()),
        pushTransports: PushTransports? = nil,
        billing: BillingSettings = BillingSettings(),
        closer: CloserSettings = CloserSettings(),
        _ body: @escaping @Sendable (TestApplication, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestDatabases.with(backend) { database in
            let application = try await TestApplication(
                apps: apps, auth: auth, identity: identity, clock: clock, database: database, pushTransports: pushTransports,
                billing: billing, closer: closer
            )
            try await application.app.test(.router) { client in
                try await body(application, client)
            }
        }
    }
}

extension TestResponse {
    /// The body as UTF-8 text.
    package var text: String { String(buffer: body) }
}

/// The exact bytes of an error envelope.
package func envelope(_ code: String, _ message: String) -> String {
    #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#
}
