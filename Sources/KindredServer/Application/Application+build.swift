import Hummingbird
import KindredAPI
import KindredStore
import Logging
import OpenAPIHummingbird
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

    /// Creates the dependencies.
    public init(
        database: Database, apps: AppRegistry, metrics: PrometheusCollectorRegistry,
        openAPIDocument: [UInt8], maxBodySize: Int, clock: any WallClock = SystemClock(),
        auth: AuthConfiguration = AuthConfiguration(), identity: any IdentityVerifying
    ) {
        self.database = database
        self.apps = apps
        self.metrics = metrics
        self.openAPIDocument = openAPIDocument
        self.maxBodySize = maxBodySize
        self.clock = clock
        self.auth = auth
        self.identity = identity
    }
}

extension UserDataRegistry {
    /// Every domain's entry, as the server registers them (account deletion and export use it;
    /// the schema test checks that it covers every table with a user column).
    public static func server() -> UserDataRegistry {
        var registry = UserDataRegistry()
        registry.register(AccountsController.userDataEntry)
        return registry
    }
}

/// Builds the router: the middleware chain, then the routes of the OpenAPI document.
///
/// Middleware order (outermost first): request id → metrics → errors → body limit → app.
/// Errors thrown anywhere below become the JSON envelope before metrics count them.
/// - Throws: when the signing keys cannot be loaded or the generated handlers registered.
public func buildRouter(_ dependencies: Dependencies) async throws -> Router<KindredRequestContext> {
    let router = Router(context: KindredRequestContext.self)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: MetricsMiddleware(factory: PrometheusMetricsFactory(registry: dependencies.metrics)))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: BodyLimitMiddleware(limit: dependencies.maxBodySize))
    router.add(middleware: AppMiddleware(registry: dependencies.apps))
    router.add(middleware: RequestScopeMiddleware(trustedProxies: dependencies.auth.trustedProxies))
    let operations = APIHandler(
        database: dependencies.database, metrics: dependencies.metrics, document: dependencies.openAPIDocument,
        accounts: try await makeAccountsController(dependencies)
    )
    // Compact, key-sorted JSON: the same bytes as the error envelope, and stable for clients.
    // Dates as `ISO8601DateTranscoder` writes them, without its formatter.
    try operations.registerHandlers(
        on: router,
        configuration: .init(
            dateTranscoder: InternetDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]
        )
    )
    return router
}

/// Builds the accounts domain: loads (or creates) the token signing key, starts the hasher.
func makeAccountsController(_ dependencies: Dependencies) async throws -> AccountsController {
    let database = dependencies.database
    let clock = dependencies.clock
    let auth = dependencies.auth
    let codec = try await SigningKeyStore.load(database, clock: clock)
    return AccountsController(
        database: database, clock: clock, settings: auth,
        store: AccountStore(database: database, clock: clock),
        tokens: TokenService(database: database, clock: clock, codec: codec, settings: auth),
        hasher: try PasswordHasher(parameters: auth.passwordParameters, maxConcurrent: auth.maxConcurrentHashes),
        rateLimiter: RateLimiter(database: database, clock: clock),
        identity: dependencies.identity,
        userData: .server()
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
        let dependencies = Dependencies(
            database: database,
            apps: configuration.apps,
            metrics: PrometheusCollectorRegistry(),
            openAPIDocument: try OpenAPIDocument.load(),
            maxBodySize: configuration.maxBodySize,
            auth: configuration.auth,
            identity: configuration.identity
        )
        let router = try await buildRouter(dependencies)
        return Application(
            router: router,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "kindred"
            ),
            services: [DatabaseService(database: database)],
            logger: logger
        )
    } catch {
        await database.close()
        throw error
    }
}
