@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import ExampleServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredAPI
import KindredStore
import KindredTestSupport
import Logging
import Prometheus
import SQLKit
import Testing


/// docs/architecture.md's "Adding a domain", followed: the example domain (Tests/ExampleServer,
/// one folder) is registered with one line next to the server's domains, and each thing a domain
/// brings works: its migration, its route in its own contract, its job and its user data.
@Suite struct ExampleDomainTests {
    /// The server's domains plus the example: the one registration line.
    static var domains: [any ServerDomain] { ServerDomains.all() + [ExampleDomain()] }

    /// A router of the core and `domains` on `database` (migrated here), with a test clock.
    static func withExample(
        _ backend: Backend, _ body: @escaping @Sendable (any TestClientProtocol, Database, TestClock) async throws -> Void
    ) async throws {
        try await TestDatabases.with(backend) { database in
            var quiet = Logger(label: "kindred.test")
            quiet.logLevel = .warning
            let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            try await CoreMigrations.migrator(domains: domains).migrate(database, logger: quiet)
            var dependencies = Dependencies(
                database: database, apps: .developmentDefaults, metrics: PrometheusCollectorRegistry(),
                openAPIDocument: try OpenAPIDocument.load(), maxBodySize: 1 << 20, clock: clock,
                auth: TestApplication.testAuth, identity: UnavailableIdentityVerifier()
            )
            dependencies.logger = quiet
            let parts = try await buildServerParts(dependencies, domains: domains)
            try await Application(router: parts.router, logger: quiet).test(.router) { client in
                try await body(client, database, clock)
            }
        }
    }

    @Test(arguments: Backend.all)
    func theRouteWorksAndRefusesBadInput(backend: Backend) async throws {
        try await Self.withExample(backend) { client, _, _ in
            let session = try await client.anonymous()
            let created = try await client.call(.post, "/v1/example/notes", token: session.accessToken, json: #"{"text":" hello "}"#)
            #expect(created.status == .created)
            #expect(String(buffer: created.body).contains(#""text":"hello""#))
            let listed = try await client.call(.get, "/v1/example/notes", token: session.accessToken)
            #expect(listed.status == .ok)
            #expect(String(buffer: listed.body).contains(#""text":"hello""#))
            // Typed refusals: blank text, no token, a body that is not the contract's.
            let blank = try await client.call(.post, "/v1/example/notes", token: session.accessToken, json: #"{"text":"   "}"#)
            #expect(blank.status == .unprocessableContent)
            #expect(try blank.decode(ErrorBody.self).error.code == "invalid_note")
            let anonymous = try await client.call(.get, "/v1/example/notes")
            #expect(anonymous.status == .unauthorized)
            let malformed = try await client.call(.post, "/v1/example/notes", token: session.accessToken, json: #"{"words":1}"#)
            #expect(malformed.status == .badRequest)
            // Another account sees none of them.
            let other = try await client.anonymous()
            let theirs = try await client.call(.get, "/v1/example/notes", token: other.accessToken)
            #expect(String(buffer: theirs.body) == #"{"notes":[]}"#)
        }
    }

    @Test(arguments: Backend.all)
    func itsContractIsServedAndMerged(backend: Backend) async throws {
        try await Self.withExample(backend) { client, _, _ in
            let own = try await client.execute(uri: "/openapi/example.yaml", method: .get, headers: [:], body: nil)
            #expect(own.status == .ok)
            #expect(String(buffer: own.body).hasPrefix("openapi: \"3.1.0\"\ninfo:\n  title: Kindred Example"))
            let merged = String(buffer: try await client.execute(uri: "/openapi.yaml", method: .get, headers: [:], body: nil).body)
            for path in ["/v1/example/notes:", "/v1/closer/invites:", "/v1/auth/anonymous:"] {
                #expect(merged.contains("\n  \(path)\n"), "\(path) is in the merged document")
            }
            let unknown = try await client.execute(uri: "/openapi/nope.yaml", method: .get, headers: [:], body: nil)
            #expect(unknown.status == .notFound)
        }
    }

    @Test(arguments: Backend.all)
    func itsMigrationJobAndUserDataAreTheServers(backend: Backend) async throws {
        try await Self.withExample(backend) { client, database, clock in
            let session = try await client.anonymous()
            _ = try await client.call(.post, "/v1/example/notes", token: session.accessToken, json: #"{"text":"old"}"#)
            // The migration is recorded under the example domain.
            let applied = try await CoreMigrations.migrator(domains: Self.domains).applied(on: database)
            #expect(applied.filter { $0.domain == "example" }.map(\.name) == ["example_0001_notes"])
            // The export holds the note; the job prunes it once it is 30 days old.
            let export = try await client.call(.get, "/v1/me/export", token: session.accessToken)
            #expect(String(buffer: export.body).contains("example_notes"))
            #expect(String(buffer: export.body).contains("old"))
            var quiet = Logger(label: "kindred.test")
            quiet.logLevel = .warning
            let platform = try Platform.server(
                environment: DomainEnvironment(database: database, clock: clock, logger: quiet), domains: Self.domains
            )
            clock.advance(by: .seconds(31 * 86_400))
            let run = try await platform.jobs.runNow("example.prune-notes")
            #expect(run.message == "deleted 1 old notes")
            // Account deletion covers the table (the registry lists it; the schema test checks all).
            #expect(UserDataRegistry.server(domains: Self.domains).coveredTables.contains("example_notes"))
        }
    }
}
