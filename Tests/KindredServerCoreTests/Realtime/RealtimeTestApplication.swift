@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredAPI
import KindredStore
import KindredTestSupport
import Logging
import Prometheus

/// A live application (real socket, the realtime hub running as a service) on a fresh
/// database of `backend`, for the WebSocket tests.
struct RealtimeTestApplication: Sendable {
    let hub: RealtimeHub
    let database: Database
    let clock: TestClock
    let port: Int

    /// Realtime settings for tests: production values unless a test shortens them.
    static var testSettings: RealtimeSettings { RealtimeSettings() }

    /// Runs `body` against a live server on a fresh database of `backend`.
    static func run(
        on backend: Backend,
        settings: RealtimeSettings = testSettings,
        authorizers: ChannelAuthorizers = ChannelAuthorizers(),
        clock: TestClock = TestClock(start: Date()),
        _ body: @escaping @Sendable (RealtimeTestApplication, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestDatabases.with(backend) { database in
            var quiet = Logger(label: "kindred.test")
            quiet.logLevel = .warning
            let parts = try await TestApplication.serverParts(on: database, clock: clock) { dependencies in
                dependencies.realtime = settings
                dependencies.channelAuthorizers = authorizers
            }
            let hub = parts.realtime
            let app = Application(
                router: parts.router, server: parts.serverBuilder,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                services: [parts.realtime], logger: quiet
            )
            try await app.test(.live) { client in
                guard let port = client.port else { throw RealtimeProbe.Timeout(description: "no port") }
                try await body(
                    RealtimeTestApplication(hub: hub, database: database, clock: clock, port: port), client
                )
            }
        }
    }
}
