import AdminConsole
import BillingServer
import CloserServer
import Hummingbird
import HummingbirdCore
import KindredAPI
import KindredServerCore
import KindredStore
import Logging
import Prometheus

/// What the composition root builds: the core's router and realtime hub with every domain
/// installed, and billing's parts the operators' tools and tests use.
package struct ServerParts {
    /// The core's parts.
    package var core: KindredServerParts
    /// Billing's operator tools (the admin console and `kindred billing` render them).
    package var billing: BillingAdministration
    /// The entitlement checks other domains use (fail closed).
    package var entitlements: BillingEntitlements

    /// The HTTP routes behind the middleware chain.
    package var router: Router<KindredRequestContext> { core.router }
    /// The realtime service.
    package var realtime: RealtimeHub { core.realtime }
    /// The server's channel setup: HTTP/1.1 with the realtime WebSocket upgrade.
    package var serverBuilder: HTTPServerBuilder { core.serverBuilder }
}

/// Builds the router and the realtime hub of the core and every domain of `ServerDomains`.
/// - Throws: when the signing keys cannot be loaded or a domain cannot install.
package func buildServerParts(_ dependencies: Dependencies, settings: DomainSettings) async throws -> ServerParts {
    var dependencies = dependencies
    let entitlements = ServerDomains.entitlements(settings, database: dependencies.database, clock: dependencies.clock)
    dependencies.entitlements = entitlements
    let core = try await buildServerParts(dependencies, domains: ServerDomains.all(settings))
    return ServerParts(core: core, billing: try core.services.require(BillingAdministration.self), entitlements: entitlements)
}

/// Builds the router of the core and every domain.
/// - Throws: when the signing keys cannot be loaded or a domain cannot install.
package func buildRouter(_ dependencies: Dependencies, settings: DomainSettings = DomainSettings()) async throws -> Router<KindredRequestContext> {
    try await buildServerParts(dependencies, settings: settings).router
}

/// Opens the database, applies every migration, and builds the application.
///
/// The database is closed when the application's services shut down (after the HTTP server
/// has stopped and finished its in-flight requests), or at once if building fails.
/// - Parameters:
///   - configuration: where to listen, the database, limits, apps and the domains' settings.
///   - logger: the server's logger (request ids are added per request).
/// - Returns: the application, ready to `runService()`.
/// - Throws: `KindredStoreError` when the database cannot be opened or migrated.
public func buildApplication(
    _ configuration: ServerConfiguration,
    logger: Logger = Logger(label: "kindred")
) async throws -> some ApplicationProtocol {
    let database = try await Database.open(configuration.database, logger: logger)
    do {
        let domains = ServerDomains.all(configuration.domains)
        try await CoreMigrations.migrator(domains: domains).migrate(database, logger: logger)
        let clock = SystemClock()
        let platform = try ServerPlatform.make(configuration, database: database, clock: clock, logger: logger)
        var dependencies = Dependencies(
            database: database,
            apps: configuration.apps,
            metrics: PrometheusCollectorRegistry(),
            openAPIDocument: try OpenAPIDocument.load(),
            maxBodySize: configuration.maxBodySize,
            clock: clock,
            auth: configuration.auth,
            identity: configuration.identity ?? JWKSIdentityVerifier(apps: configuration.apps, clock: clock, logger: logger),
            platform: platform,
            pushTransports: try PushTransports.configured(apps: configuration.apps, client: .shared, clock: clock, logger: logger)
        )
        dependencies.realtime = configuration.realtime
        dependencies.integrity = configuration.integrity
        dependencies.operationsToken = configuration.operationsToken
        dependencies.logger = logger
        let parts = try await buildServerParts(dependencies, settings: configuration.domains)
        logger.info(
            "admin console at http://\(configuration.host):\(configuration.port)/admin; create its first operator with `kindred admin create --email ADDRESS --password-stdin`"
        )
        OpenFilesLimit.ensure(room: configuration.connections.maxConnections, logger: logger)
        return Application(
            router: parts.router,
            server: parts.realtime.serverBuilder(connections: configuration.connections),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "kindred"
            ),
            // Stopped in reverse order: the server, the realtime hub, the platform's workers, then the database.
            services: [DatabaseService(database: database)] + platform.services + [parts.realtime],
            logger: logger
        )
    } catch {
        await database.close()
        throw error
    }
}

/// The server's platform: the core's jobs and every domain's, with billing's entitlements. The
/// server and `kindred jobs` both build it here, so an operator sees exactly the server's jobs.
public enum ServerPlatform {
    /// Builds the platform of `configuration`'s domains on `database`.
    /// - Throws: `JobError` when two jobs share a name or a schedule is invalid.
    public static func make(
        _ configuration: ServerConfiguration, database: Database, clock: any WallClock, logger: Logger
    ) throws -> Platform {
        let environment = DomainEnvironment(
            database: database, clock: clock, logger: logger,
            entitlements: ServerDomains.entitlements(configuration.domains, database: database, clock: clock)
        )
        return try Platform.server(
            environment: environment, settings: configuration.platform, realtime: configuration.realtime,
            domains: ServerDomains.all(configuration.domains)
        )
    }
}

extension Platform {
    /// The server's platform from the domains' settings, without a configuration (tests and
    /// benchmarks): the core's jobs and every domain's, Closer's premium from billing's checks
    /// unless `closerEntitlements` replaces them.
    /// - Throws: `JobError` when two jobs share a name or a schedule is invalid.
    package static func server(
        database: Database, clock: any WallClock, logger: Logger, settings: Settings = Settings(),
        realtime: RealtimeSettings = RealtimeSettings(), closer: CloserSettings = CloserSettings(),
        closerEntitlements: (any CloserEntitlements)? = nil, admin: AdminSettings = AdminSettings(),
        billing: BillingSettings = BillingSettings()
    ) throws -> Platform {
        var configuration = ServerConfiguration(platform: settings)
        configuration.realtime = realtime
        configuration.domains.closer = closer
        configuration.domains.closerEntitlements = closerEntitlements
        configuration.domains.admin = admin
        configuration.domains.billing = billing
        return try ServerPlatform.make(configuration, database: database, clock: clock, logger: logger)
    }
}
