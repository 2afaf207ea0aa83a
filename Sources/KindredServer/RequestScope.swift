import HTTPTypes
import Hummingbird
import Logging

/// What a handler of the generated API needs to know about its request, bound to the task for
/// the duration of the request (the generated handlers receive only their typed input).
struct RequestScope: Sendable {
    /// The scope of the request the current task serves; nil outside a request.
    @TaskLocal static var current: RequestScope?

    /// The app the request names (nil on the operational routes).
    var app: AppConfiguration?
    /// The raw `Authorization` header.
    var authorization: String?
    /// The client's address (the peer, or from `X-Forwarded-For` behind a trusted proxy).
    var clientAddress: String
    /// The request's logger, carrying its request id.
    var logger: Logger

    /// The current request's scope.
    /// - Throws: `KindredError.internal` when called outside a request (a wiring bug).
    static func require() throws -> RequestScope {
        guard let current else { throw KindredError.internal }
        return current
    }

    /// The current request's app.
    /// - Throws: `missingApp` on a route that was exempted from naming one.
    static func requireApp() throws -> AppConfiguration {
        guard let app = try require().app else { throw KindredError.missingApp }
        return app
    }
}

/// Binds `RequestScope.current` for everything below it; the innermost middleware.
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    let trustedProxies: TrustedProxies

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let address = trustedProxies.clientAddress(
            peer: context.peerAddress, forwardedFor: request.headers[values: .xForwardedFor]
        )
        let scope = RequestScope(
            app: context.app, authorization: request.headers[.authorization],
            clientAddress: address, logger: context.logger
        )
        return try await RequestScope.$current.withValue(scope) {
            try await next(request, context)
        }
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`, believed only from trusted proxies.
    static let xForwardedFor = Self("X-Forwarded-For")!
}
