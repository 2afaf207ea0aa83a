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
    /// The core's OpenAPI document, served at `/openapi/core.yaml` and merged with the domains'
    /// into `/openapi.yaml`.
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
    /// Who has premium access to which app (billing's checks, given by the composition root).
    public var entitlements: any Entitlements = NoEntitlements()
    /// Whether the hottest operations (the core's and the domains', `DomainServer.transport(direct:)`)
    /// are served by their direct handlers (`DirectRoutes`); false serves every operation through
    /// the generated server (the comparison tests).
    public var directRoutes = true
    /// Device integrity: each app's App Attest and Play Integrity settings, and the policy.
    public var integrity = IntegritySettings()
    /// The bearer token that lets remote clients read `/metrics` and `/ready`
    /// (`operations.token`); nil: local clients only.
    public var operationsToken: String?

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
    /// The core's entries and every domain's, as the server registers them (account deletion and
    /// export use it; the schema test checks that it covers every table with a user column).
    package static func server(domains: [any ServerDomain]) -> UserDataRegistry {
        var registry = UserDataRegistry()
        registry.register(AccountsController.userDataEntry)
        registry.register(NotificationsSchema.userDataEntry)
        registry.register(RealtimeSchema.userDataEntry)
        registry.register(IntegritySchema.userDataEntry)
        for domain in domains {
            for entry in domain.userData { registry.register(entry) }
        }
        return registry
    }
}

/// What the server is made of: the HTTP router, and the realtime hub (a service, and the
/// WebSocket upgrade on `/v1/realtime`).
package struct KindredServerParts {
    /// The HTTP routes behind the middleware chain.
    package var router: Router<KindredRequestContext>
    /// The realtime service; run it as a service of the application (listed before the
    /// server, so it stops after it): without its `run()`, no live event reaches a subscriber.
    package var realtime: RealtimeHub
    /// What the domains provided one another (billing's administration, …).
    package var services: DomainServices

    /// The server's channel setup: HTTP/1.1 with the realtime WebSocket upgrade.
    package var serverBuilder: HTTPServerBuilder { realtime.serverBuilder() }
}

/// Builds the router and the realtime hub of the core and `domains`.
///
/// One middleware (`KindredMiddleware`) runs before every route: request id, errors, body limit,
/// app, request scope, then metrics and the log line. Errors thrown anywhere below become the
/// JSON envelope before metrics count them. Each domain installs in order, then the core's own
/// contract is registered (its subscription routes use the `SubscriptionService` a domain
/// provided), then the home page and the realtime fallback.
/// - Throws: when the signing keys cannot be loaded, a domain cannot install, or the generated
///   handlers cannot be registered.
package func buildServerParts(_ dependencies: Dependencies, domains: [any ServerDomain]) async throws -> KindredServerParts {
    let router = Router(context: KindredRequestContext.self)
    router.add(
        middleware: KindredMiddleware(
            metrics: PrometheusMetricsFactory(registry: dependencies.metrics), bodyLimit: dependencies.maxBodySize,
            apps: dependencies.apps, trustedProxies: dependencies.auth.trustedProxies
        )
    )
    let environment = DomainEnvironment(
        database: dependencies.database, clock: dependencies.clock, logger: dependencies.logger,
        entitlements: dependencies.entitlements
    )
    var tokens = try await makeTokenService(dependencies)
    let sessions = RealtimeSessions()
    tokens.sessions = sessions
    var channelAuthorizers = dependencies.channelAuthorizers
    for domain in domains {
        for (kind, authorizer) in domain.channelAuthorizers(environment: environment) {
            channelAuthorizers.register(kind: kind, authorizer)
        }
    }
    var realtimeLogger = dependencies.logger
    realtimeLogger[metadataKey: "service"] = "realtime"
    let realtime = RealtimeHub(
        database: dependencies.database, clock: dependencies.clock, settings: dependencies.realtime,
        authorizers: channelAuthorizers, tokens: tokens, apps: dependencies.apps, logger: realtimeLogger,
        sessions: sessions
    )
    let notifications = try makeNotificationsController(dependencies)
    dependencies.platform.realtime.bind(realtime.publisher)
    let accounts = try makeAccountsController(
        dependencies, tokens: tokens, realtime: realtime.publisher, outbox: notifications.outbox,
        userData: .server(domains: domains)
    )
    let integrity = IntegrityService(database: dependencies.database, clock: dependencies.clock, settings: dependencies.integrity)
    if !dependencies.integrity.policy.rules.isEmpty {
        router.add(middleware: IntegrityMiddleware(service: integrity, accounts: accounts))
    }
    let services = DomainServices()
    services.provide(AdminOverviews(sections: domains.compactMap { $0.adminOverview(environment: environment) }))
    var contracts = [APIContract(name: APIContract.coreName, document: dependencies.openAPIDocument)]
    contracts += domains.compactMap(\.contract)
    // Every operation is checked against its contract's lengths, patterns and bounds before its
    // handler (RequestValidation/); compiled here, once, from the documents `/openapi/…` serves.
    let constraints = try RequestConstraints(contracts)
    let transport = KindredTransport(router: router, direct: DirectRoutes(), constraints: constraints)
    let server = DomainServer(
        environment: environment, dependencies: dependencies, router: router, kindredTransport: transport,
        realtime: realtime, outbox: notifications.outbox, authenticator: Authenticator(accounts: accounts),
        services: services
    )
    for domain in domains {
        try await domain.install(on: server)
    }
    let operations = APIHandler(
        database: dependencies.database, metrics: dependencies.metrics,
        contracts: try APIContracts(contracts),
        accounts: accounts,
        notifications: notifications,
        realtime: realtime,
        rateLimiter: RateLimiter(database: dependencies.database, clock: dependencies.clock),
        subscriptions: services.get((any SubscriptionService).self) ?? UnavailableSubscriptions(),
        integrity: integrity,
        operationsAccess: OperationsAccess(token: dependencies.operationsToken)
    )
    try operations.registerHandlers(
        on: KindredTransport(
            router: router, direct: dependencies.directRoutes ? operations.directRoutes() : DirectRoutes(), constraints: constraints
        ),
        configuration: DomainServer.openAPIConfiguration
    )
    HomePage(
        database: dependencies.database.sql.dialect.name,
        apps: dependencies.apps.apps.values.sorted { $0.id.rawValue < $1.id.rawValue },
        contracts: contracts.map(\.name)
    ).register(on: router)
    realtime.addFallbackRoute(to: router)
    return KindredServerParts(router: router, realtime: realtime, services: services)
}

/// Loads (or creates) the token signing key.
func makeTokenService(_ dependencies: Dependencies) async throws -> TokenService {
    let keyRing = try await SigningKeyRing.start(
        store: SigningKeyStore(database: dependencies.database, clock: dependencies.clock, auth: dependencies.auth),
        logger: dependencies.logger
    )
    var tokens = TokenService(
        database: dependencies.database, clock: dependencies.clock, keyRing: keyRing, settings: dependencies.auth
    )
    tokens.sessionWithCredentialsStatement = TokenService.sessionWithCredentialsStatement(
        premium: dependencies.entitlements.premiumSource
    )
    return tokens
}

/// Builds the accounts domain and starts the hasher.
func makeAccountsController(
    _ dependencies: Dependencies, tokens: TokenService, realtime: RealtimePublisher, outbox: NotificationOutbox,
    userData: UserDataRegistry
) throws -> AccountsController {
    let database = dependencies.database
    let clock = dependencies.clock
    let auth = dependencies.auth
    return AccountsController(
        database: database, clock: clock, settings: auth,
        store: AccountStore(database: database, clock: clock),
        tokens: tokens,
        hasher: try PasswordHasher(
            parameters: auth.passwordParameters, maxConcurrent: auth.maxConcurrentHashes, maxWaiting: auth.maxQueuedHashes
        ),
        rateLimiter: RateLimiter(database: database, clock: clock),
        identity: dependencies.identity,
        userData: userData,
        outbox: outbox,
        queue: dependencies.platform.queue,
        realtime: realtime
    )
}

/// Builds the notifications domain: the outbox enqueues dispatch work on the platform's queue in
/// the caller's transaction, and the dispatcher drains that queue.
func makeNotificationsController(_ dependencies: Dependencies) throws -> NotificationsController {
    let queue = dependencies.platform.queue
    // No dedupe key: the id is a new notification's, queued once in the transaction that made it,
    // so a key could never match (it cost an insert, an index entry and a later prune per push).
    let outbox = NotificationOutbox(clock: dependencies.clock) { id, notBefore, sql in
        _ = try await queue.enqueue(queue: NotificationsQueue.name, payload: id, runAt: notBefore, on: sql)
    }
    let dispatcher = NotificationDispatcher(
        database: dependencies.database, clock: dependencies.clock, transports: dependencies.pushTransports,
        logger: Logger(label: "kindred.notifications")
    )
    try dependencies.platform.worker.register(NotificationsQueue.handler(dispatcher: dispatcher, queue: queue))
    return NotificationsController(database: dependencies.database, clock: dependencies.clock, outbox: outbox)
}
