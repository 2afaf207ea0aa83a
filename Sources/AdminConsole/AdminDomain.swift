import KindredServerCore
import KindredStore

/// The operators' console as a domain of the server: its migrations, the session purge job and its
/// pages under `/admin`. It reads billing through `AdminSubscriptionDirectory`, which the
/// composition root adapts from billing's administration API (tests give a fake), so the console
/// never imports a domain.
package struct AdminDomain: ServerDomain {
    /// The console's settings.
    package var settings: AdminSettings
    /// The subscription pages' source, looked up once the earlier domains have installed; nil:
    /// the pages answer that billing is not part of this server.
    package var subscriptions: @Sendable (DomainServices, DomainEnvironment) throws -> (any AdminSubscriptionDirectory)?

    /// Creates the domain.
    package init(
        settings: AdminSettings = AdminSettings(),
        subscriptions: @escaping @Sendable (DomainServices, DomainEnvironment) throws -> (any AdminSubscriptionDirectory)? = { _, _ in nil }
    ) {
        self.settings = settings
        self.subscriptions = subscriptions
    }

    /// `admin`.
    package var name: String { "admin" }
    /// The console's operators and sessions.
    package var migrations: [Migration] { AdminSchema.migrations }

    /// The ended-session purge.
    package func registerJobs(on platform: Platform, environment: DomainEnvironment) throws {
        try AdminJobs.register(on: platform, database: environment.database, clock: environment.clock, settings: settings)
    }

    /// Loads the templates once and registers the console's pages.
    package func install(on server: DomainServer) async throws {
        let dependencies = server.dependencies
        let hasher = try PasswordHasher(
            parameters: dependencies.auth.passwordParameters, maxConcurrent: dependencies.auth.maxConcurrentHashes,
            maxWaiting: dependencies.auth.maxQueuedHashes
        )
        let environment = server.environment
        let console = AdminConsole(
            operators: AdminOperators(database: environment.database, clock: environment.clock, hasher: hasher),
            sessions: AdminSessions(database: environment.database, clock: environment.clock, settings: settings),
            settings: settings, trustedProxies: dependencies.auth.trustedProxies,
            loopbackExempt: dependencies.auth.loopbackExempt,
            rateLimiter: server.rateLimiter(),
            queue: server.platform.queue,
            subscriptions: try subscriptions(server.services, environment) ?? UnavailableSubscriptionDirectory(),
            templates: try await AdminTemplates.load(), logger: environment.logger(for: "admin"),
            audit: AdminAuditLog(database: environment.database, clock: environment.clock),
            accounts: AdminAccounts(
                database: environment.database, clock: environment.clock,
                apps: dependencies.apps.apps.keys.map(\.rawValue).sorted(),
                refreshLifetime: dependencies.auth.refreshTokenLifetime
            ),
            accountsController: server.authenticator.accounts,
            administration: AccountAdministration(database: environment.database, clock: environment.clock),
            jobs: server.platform.jobs,
            overviews: server.services.get(AdminOverviews.self) ?? AdminOverviews(sections: []),
            health: AdminHealth(
                version: AdminOverviews.serverVersion, database: environment.database.sql.dialect.name,
                startedAt: environment.clock.now()
            ),
            realtime: server.realtime, worker: server.platform.worker
        )
        try await console.register(on: server.router)
    }
}

/// The subscription pages of a server without billing: nothing to list, nothing to run.
struct UnavailableSubscriptionDirectory: AdminSubscriptionDirectory {
    private var unavailable: KindredError {
        KindredError.refused(status: 503, code: "billing_unavailable", message: "billing is not part of this server")
    }

    func search(_ query: AdminSubscriptionQuery) async throws -> AdminSubscriptionPage { AdminSubscriptionPage(rows: [], total: 0) }
    func detail(userID: String) async throws -> AdminSubscriptionDetail? { nil }
    func refresh(userID: String) async throws -> Bool { false }
    func syncNow(userID: String, providers: AdminSyncProviders) async throws -> AdminSyncOutcome? { nil }
    func backfill(_ kind: AdminBackfillKind, dryRun: Bool, userID: String?) async throws -> AdminBackfillReport { throw unavailable }
    func doubleBilled(limit: Int) async throws -> [AdminSubscriptionRow] { [] }
}
