import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import KindredAPI
import KindredStore
import Logging
import OpenAPIRuntime
import Prometheus

/// What the router's routes and middleware are built from; no singletons.
public struct Dependencies: Sendable {
    /// The open, migrated database.
    public var database: Database
    /// The apps requests may name.
    public var apps: AppRegistry
    /// The Prometheus registry behind `/metrics`.
    public var metrics: PrometheusCollectorRegistry
    /// The OpenAPI document served at `/openapi.yaml`.
    public var openAPIDocument: [UInt8]
    /// The largest request body accepted, in bytes.
    public var maxBodySize: Int
    /// The time source of every timestamp and expiry.
    public var clock: any WallClock
    /// Account settings: token lifetimes, password cost, limits, trusted proxies.
    public var auth: AuthConfiguration
    /// Verifies Apple and Google identity tokens.
    public var identity: any IdentityVerifying
    /// Scheduled jobs and the work queue: domains register jobs and queue handlers on it.
    public var platform: Platform
    /// Each app's push transports (the log transport where none is configured).
    public var pushTransports: PushTransports
    /// The realtime service's heartbeat, retention and limits.
    public var realtime: RealtimeSettings = RealtimeSettings()
    /// Who may read each kind of realtime channel (`user` is built in).
    public var channelAuthorizers: ChannelAuthorizers = ChannelAuthorizers()
    /// The logger of long-running services (the realtime hub).
    public var logger: Logger = Logger(label: "kindred")
    /// Closer's settings.
    public var closer: CloserSettings = CloserSettings()
    /// Whether a Closer couple is premium (free only until billing provides the real answer).
    public var closerEntitlements: any CloserEntitlements = FreeOnlyEntitlements()
    /// The admin console's settings.
    public var admin: AdminSettings = AdminSettings()
    /// What the admin console's subscription pages read instead of billing's administration
    /// API (tests give a fake); nil: billing's.
    public var adminSubscriptions: (any AdminSubscriptionDirectory)?
    /// Billing: provider secrets, base URLs, products, the inbox's retry policy.
    public var billing: BillingSettings = BillingSettings()
    /// Whether the hottest operations are served by their direct handlers (`DirectRoutes`);
    /// false serves every operation through the generated server (the comparison tests).
    public var directRoutes = true

    /// Creates the dependencies.
    public init(
        database: Database, apps: AppRegistry, metrics: PrometheusCollectorRegistry,
        openAPIDocument: [UInt8], maxBodySize: Int, clock: any WallClock = SystemClock(),
        auth: AuthConfiguration = AuthConfiguration(), identity: any IdentityVerifying,
        platform: Platform? = nil, pushTransports: PushTransports? = nil
    ) {
        self.database = database
        self.apps = apps
        self.metrics = metrics
        self.openAPIDocument = openAPIDocument
        self.maxBodySize = maxBodySize
        self.clock = clock
        self.auth = auth
        self.identity = identity
        self.platform = platform ?? Platform(database: database, clock: clock, logger: Logger(label: "kindred.platform"))
        self.pushTransports = pushTransports ?? PushTransports(fallback: LogPushTransport(logger: Logger(label: "kindred.push")))
    }
}

extension UserDataRegistry {
    /// Every domain's entry, as the server registers them (account deletion and export use it;
    /// the schema test checks that it covers every table with a user column).
    public static func server() -> UserDataRegistry {
        var registry = UserDataRegistry()
        registry.register(AccountsController.userDataEntry)
        registry.register(NotificationsSchema.userDataEntry)
        registry.register(RealtimeSchema.userDataEntry)
        registry.register(CloserSchema.userDataEntry)
        registry.register(BillingSchema.userDataEntry)
        return registry
    }
}

/// What the server is made of: the HTTP router, and the realtime hub (a service, and the
/// WebSocket upgrade on `/v1/realtime`).
public struct KindredServerParts {
    /// The HTTP routes behind the middleware chain.
    public var router: Router<KindredRequestContext>
    /// The realtime service; run it as a service of the application (listed before the
    /// server, so it stops after it): without its `run()`, no live event reaches a subscriber.
    public var realtime: RealtimeHub
    /// Billing's operator tools (the admin console renders them).
    public var billing: BillingAdministration
    /// The entitlement checks other domains use (e.g. `closerPremium(userID:)`; fail closed).
    public var entitlements: Entitlements

    /// The server's channel setup: HTTP/1.1 with the realtime WebSocket upgrade.
    public var serverBuilder: HTTPServerBuilder { realtime.serverBuilder() }
}

/// Builds the router: the middleware chain, then the routes of the OpenAPI document.
///
/// One middleware (`KindredMiddleware`) runs before every route: request id, errors, body limit,
/// app, request scope, then metrics and the log line. Errors thrown anywhere below become the
/// JSON envelope before metrics count them.
/// - Throws: when the signing keys cannot be loaded or the generated handlers registered.
public func buildRouter(_ dependencies: Dependencies) async throws -> Router<KindredRequestContext> {
    try await buildServerParts(dependencies).router
}

/// Builds the router and the realtime hub.
/// - Throws: when the signing keys cannot be loaded or the generated handlers registered.
public func buildServerParts(_ dependencies: Dependencies) async throws -> KindredServerParts {
    let router = Router(context: KindredRequestContext.self)
    router.add(
        middleware: KindredMiddleware(
            metrics: PrometheusMetricsFactory(registry: dependencies.metrics), bodyLimit: dependencies.maxBodySize,
            apps: dependencies.apps, trustedProxies: dependencies.auth.trustedProxies
        )
    )
    var tokens = try await makeTokenService(dependencies)
    let sessions = RealtimeSessions()
    tokens.sessions = sessions
    var channelAuthorizers = dependencies.channelAuthorizers
    channelAuthorizers.register(kind: "couple", CoupleChannelAuthorizer(database: dependencies.database))
    var realtimeLogger = dependencies.logger
    realtimeLogger[metadataKey: "service"] = "realtime"
    let realtime = RealtimeHub(
        database: dependencies.database, clock: dependencies.clock, settings: dependencies.realtime,
        authorizers: channelAuthorizers, tokens: tokens, apps: dependencies.apps, logger: realtimeLogger,
        sessions: sessions
    )
    let notifications = try makeNotificationsController(dependencies)
    dependencies.platform.realtime.bind(realtime.publisher)
    let billing = try BillingDomain.make(dependencies, realtime: realtime.publisher)
    let operations = APIHandler(
        database: dependencies.database, metrics: dependencies.metrics, document: dependencies.openAPIDocument,
        accounts: try makeAccountsController(
            dependencies, tokens: tokens, realtime: realtime.publisher, outbox: notifications.outbox
        ),
        notifications: notifications,
        realtime: realtime,
        closer: try await makeCloserController(dependencies, outbox: notifications.outbox, realtime: realtime),
        rateLimiter: RateLimiter(database: dependencies.database, clock: dependencies.clock),
        billing: billing
    )
    // Compact, key-sorted JSON: the same bytes as the error envelope, and stable for clients.
    // Dates as `ISO8601DateTranscoder` writes them, without its formatter.
    try operations.registerHandlers(
        on: KindredTransport(router: router, direct: dependencies.directRoutes ? operations.directRoutes() : DirectRoutes()),
        configuration: .init(
            dateTranscoder: InternetDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]
        )
    )
    try await makeAdminConsole(dependencies, billing: billing.administration).register(on: router)
    realtime.addFallbackRoute(to: router)
    billing.webhooks.register(on: router)
    return KindredServerParts(
        router: router, realtime: realtime, billing: billing.administration, entitlements: billing.entitlements
    )
}

/// Loads (or creates) the token signing key.
func makeTokenService(_ dependencies: Dependencies) async throws -> TokenService {
    let codec = try await SigningKeyStore.load(dependencies.database, clock: dependencies.clock)
    return TokenService(
        database: dependencies.database, clock: dependencies.clock, codec: codec, settings: dependencies.auth
    )
}

/// Builds the accounts domain and starts the hasher.
func makeAccountsController(
    _ dependencies: Dependencies, tokens: TokenService, realtime: RealtimePublisher, outbox: NotificationOutbox
) throws -> AccountsController {
    let database = dependencies.database
    let clock = dependencies.clock
    let auth = dependencies.auth
    return AccountsController(
        database: database, clock: clock, settings: auth,
        store: AccountStore(database: database, clock: clock),
        tokens: tokens,
        hasher: try PasswordHasher(parameters: auth.passwordParameters, maxConcurrent: auth.maxConcurrentHashes),
        rateLimiter: RateLimiter(database: database, clock: clock),
        identity: dependencies.identity,
        userData: .server(),
        outbox: outbox,
        queue: dependencies.platform.queue,
        realtime: realtime
    )
}

/// Builds the operators' admin console (its templates are loaded here, once).
/// Its subscription pages read `dependencies.adminSubscriptions` when set (tests), else billing's.
func makeAdminConsole(_ dependencies: Dependencies, billing: BillingAdministration) async throws -> AdminConsole {
    let hasher = try PasswordHasher(
        parameters: dependencies.auth.passwordParameters, maxConcurrent: dependencies.auth.maxConcurrentHashes
    )
    var logger = dependencies.logger
    logger[metadataKey: "domain"] = "admin"
    return AdminConsole(
        operators: AdminOperators(database: dependencies.database, clock: dependencies.clock, hasher: hasher),
        sessions: AdminSessions(database: dependencies.database, clock: dependencies.clock, settings: dependencies.admin),
        settings: dependencies.admin, trustedProxies: dependencies.auth.trustedProxies,
        loopbackExempt: dependencies.auth.loopbackExempt,
        rateLimiter: RateLimiter(database: dependencies.database, clock: dependencies.clock),
        queue: dependencies.platform.queue,
        subscriptions: dependencies.adminSubscriptions ?? BillingConsoleDirectory(billing: billing, clock: dependencies.clock),
        templates: try await AdminTemplates.load(), logger: logger
    )
}

/// Builds the notifications domain: the outbox enqueues dispatch work on the platform's queue in
/// the caller's transaction, and the dispatcher drains that queue.
func makeNotificationsController(_ dependencies: Dependencies) throws -> NotificationsController {
    let queue = dependencies.platform.queue
    let outbox = NotificationOutbox(clock: dependencies.clock) { id, notBefore, sql in
        _ = try await queue.enqueue(queue: NotificationsQueue.name, payload: id, runAt: notBefore, dedupeKey: id, on: sql)
    }
    let dispatcher = NotificationDispatcher(
        database: dependencies.database, clock: dependencies.clock, transports: dependencies.pushTransports,
        logger: Logger(label: "kindred.notifications")
    )
    try dependencies.platform.worker.register(NotificationsQueue.handler(dispatcher: dispatcher, queue: queue))
    return NotificationsController(database: dependencies.database, clock: dependencies.clock, outbox: outbox)
}

/// Builds Closer: loads the catalog (bundled and imported packs) once, at start.
func makeCloserController(
    _ dependencies: Dependencies, outbox: NotificationOutbox, realtime: RealtimeHub
) async throws -> CloserController {
    CloserController(
        database: dependencies.database, clock: dependencies.clock,
        catalog: try await CloserCatalog.load(from: dependencies.database), settings: dependencies.closer,
        entitlements: dependencies.closerEntitlements,
        events: CloserEvents(outbox: outbox, relay: dependencies.platform.realtime),
        membershipChanged: { userID in try? await realtime.membershipChanged(user: userID) }
    )
}

/// Opens the database, applies every migration, and builds the application.
///
/// The database is closed when the application's services shut down (after the HTTP server
/// has stopped and finished its in-flight requests), or at once if building fails.
/// - Parameters:
///   - configuration: where to listen, the database, limits and apps.
///   - logger: the server's logger (request ids are added per request).
/// - Returns: the application, ready to `runService()`.
/// - Throws: `KindredStoreError` when the database cannot be opened or migrated.
public func buildApplication(
    _ configuration: ServerConfiguration,
    logger: Logger = Logger(label: "kindred")
) async throws -> some ApplicationProtocol {
    let database = try await Database.open(configuration.database, logger: logger)
    do {
        try await Migrator(ServerMigrations.all).migrate(database, logger: logger)
        let clock = SystemClock()
        // Closer's premium packs follow billing's entitlements (in the jobs and the routes alike).
        let closerEntitlements = BillingCloserEntitlements(
            Entitlements(database: database, clock: clock, settings: configuration.billing)
        )
        let platform = try Platform.server(
            database: database, clock: clock, logger: logger, settings: configuration.platform,
            realtime: configuration.realtime, closer: configuration.closer, closerEntitlements: closerEntitlements,
            admin: configuration.admin
        )
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
        dependencies.closer = configuration.closer
        dependencies.closerEntitlements = closerEntitlements
        dependencies.admin = configuration.admin
        dependencies.logger = logger
        dependencies.billing = configuration.billing
        let parts = try await buildServerParts(dependencies)
        return Application(
            router: parts.router,
            server: parts.serverBuilder,
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
