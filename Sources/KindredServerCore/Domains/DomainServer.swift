import Hummingbird
import KindredAPI
import KindredStore
import OpenAPIRuntime

/// What a domain's `install` is given: the server being built. A domain registers its generated
/// handlers on `transport` (with `openAPIConfiguration`, so every contract encodes alike), any
/// plain routes (webhooks, HTML pages) on `router`, its queue handlers on `platform.worker`, and
/// services other domains use on `services`.
package struct DomainServer {
    /// The database, clock, logger and entitlements every hook shares.
    package let environment: DomainEnvironment
    /// The core's dependencies (apps, account settings, the platform, …).
    package let dependencies: Dependencies
    /// The router, for routes outside a contract (webhooks, HTML pages).
    package let router: Router<KindredRequestContext>
    /// The transport a domain's generated server registers its handlers on.
    package var transport: any ServerTransport { kindredTransport }
    /// The same transport as its own type, for `transport(direct:)`.
    let kindredTransport: KindredTransport
    /// The realtime hub: its `publisher`, and `membershipChanged(user:)` when channel access changes.
    package let realtime: RealtimeHub
    /// Queues push notifications in the caller's transaction.
    package let outbox: NotificationOutbox
    /// The signed-in account of the current request.
    package let authenticator: Authenticator
    /// Values the domains offer one another (`provide` / `require`).
    package let services: DomainServices

    /// The jobs and the work queue.
    package var platform: Platform { dependencies.platform }
    /// The generated servers' encoding: compact, key-sorted JSON (the error envelope's bytes) and
    /// dates as `ISO8601DateTranscoder` writes them, without its formatter.
    package var openAPIConfiguration: Configuration { Self.openAPIConfiguration }

    package static let openAPIConfiguration = Configuration(
        dateTranscoder: InternetDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]
    )

    /// The transport with direct handlers (`DirectRoutes`) for some operations of the domain's
    /// own contract: each is still checked against the contract's constraints first, and answers
    /// only ordinary requests (the others, and those it hands back, go to the generated code).
    /// Without `dependencies.directRoutes` (the comparison tests), the same as `transport`.
    /// - Parameter direct: the handlers, keyed by method and path as the document writes them.
    /// - Returns: the transport to register the domain's generated server on.
    package func transport(direct: DirectRoutes) -> any ServerTransport {
        guard dependencies.directRoutes else { return kindredTransport }
        var transport = kindredTransport
        transport.direct = direct
        return transport
    }

    /// A rate limiter on the server's database.
    package func rateLimiter() -> RateLimiter {
        RateLimiter(database: environment.database, clock: environment.clock)
    }
}

/// The signed-in account behind the current request's bearer token, for every domain's handlers.
package struct Authenticator: Sendable {
    package let accounts: AccountsController

    /// The account of the current request's bearer token, for the request's app.
    /// - Throws: `KindredError` (`missing_token`, `invalid_token`, `token_expired`,
    ///   `session_revoked`, `account_disabled`, `missing_app`).
    package func user() async throws -> AuthenticatedUser {
        let scope = try RequestScope.require()
        return try await accounts.authenticate(scope, app: try RequestScope.requireApp())
    }
}
