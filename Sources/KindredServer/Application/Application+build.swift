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

    /// Creates the dependencies.
    public init(
        database: Database, apps: AppRegistry, metrics: PrometheusCollectorRegistry,
        openAPIDocument: [UInt8], maxBodySize: Int
    ) {
        self.database = database
        self.apps = apps
        self.metrics = metrics
        self.openAPIDocument = openAPIDocument
        self.maxBodySize = maxBodySize
    }
}

/// Builds the router: the middleware chain, then the routes of the OpenAPI document.
///
/// Middleware order (outermost first): request id → metrics → errors → body limit → app.
/// Errors thrown anywhere below become the JSON envelope before metrics count them.
/// - Throws: when the generated handlers cannot be registered.
public func buildRouter(_ dependencies: Dependencies) throws -> Router<KindredRequestContext> {
    let router = Router(context: KindredRequestContext.self)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: MetricsMiddleware(factory: PrometheusMetricsFactory(registry: dependencies.metrics)))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: BodyLimitMiddleware(limit: dependencies.maxBodySize))
    router.add(middleware: AppMiddleware(registry: dependencies.apps))
    let operations = OperationsAPI(
        database: dependencies.database, metrics: dependencies.metrics, document: dependencies.openAPIDocument
    )
    // Compact, key-sorted JSON: the same bytes as the error envelope, and stable for clients.
    try operations.registerHandlers(
        on: router, configuration: .init(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
    )
    return router
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
        try await Migrator(StoreMigrations.all).migrate(database, logger: logger)
        let dependencies = Dependencies(
            database: database,
            apps: configuration.apps,
            metrics: PrometheusCollectorRegistry(),
            openAPIDocument: try OpenAPIDocument.load(),
            maxBodySize: configuration.maxBodySize
        )
        let router = try buildRouter(dependencies)
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
