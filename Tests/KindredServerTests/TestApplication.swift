import Foundation
import Hummingbird
import HummingbirdTesting
import KindredAPI
import KindredServer
import KindredStore
import Logging
import Prometheus
import Testing

/// An application on a private in-memory SQLite database, for `app.test(.router)` tests.
struct TestApplication {
    let database: Database
    let metrics = PrometheusCollectorRegistry()
    let app: Application<RouterResponder<KindredRequestContext>>

    /// Builds the router the server uses, with `maxBodySize` and `apps` as given.
    init(maxBodySize: Int = 1 << 20, apps: AppRegistry = .developmentDefaults) async throws {
        database = try await Database.open(DatabaseConfiguration(url: .sqliteMemory))
        var quiet = Logger(label: "kindred.test")
        quiet.logLevel = .warning
        try await Migrator(StoreMigrations.all).migrate(database, logger: quiet)
        let router = try buildRouter(
            Dependencies(
                database: database, apps: apps, metrics: metrics,
                openAPIDocument: try OpenAPIDocument.load(), maxBodySize: maxBodySize
            )
        )
        app = Application(router: router, logger: quiet)
    }

    /// Runs `body` against the router (no socket), then closes the database.
    func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        do {
            try await app.test(.router, body)
            await database.close()
        } catch {
            await database.close()
            throw error
        }
    }
}

extension TestResponse {
    /// The body as UTF-8 text.
    var text: String { String(buffer: body) }
}

/// The exact bytes of an error envelope.
func envelope(_ code: String, _ message: String) -> String {
    #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#
}
