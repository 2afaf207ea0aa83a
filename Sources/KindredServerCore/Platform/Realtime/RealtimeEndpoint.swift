import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// The request context of the WebSocket upgrade router: Hummingbird's storage, the WebSocket
/// handler slot, and who authenticated.
public struct RealtimeRequestContext: RequestContext, WebSocketRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// Where the upgrade handler is put for the channel to run.
    public let webSocket: WebSocketHandlerReference<Self>
    /// Who the upgrade request authenticated as; set by the authentication middleware.
    var identity: RealtimeIdentity?

    /// Creates the context of an upgrade request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
    }
}

/// Authenticates upgrade requests; a refusal makes the upgrade fall through to the HTTP
/// router, whose `GET /v1/realtime` answers with the JSON error.
struct RealtimeAuthenticationMiddleware: RouterMiddleware {
    typealias Context = RealtimeRequestContext

    let hub: RealtimeHub

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.identity = try await hub.authenticate(request, redeemTicket: true)
        return try await next(request, context)
    }
}

extension RealtimeHub {
    /// The path of the realtime WebSocket.
    package static let path = "/v1/realtime"

    /// The router the server consults for WebSocket upgrades: `GET /v1/realtime`.
    package func webSocketRouter() -> Router<RealtimeRequestContext> {
        let router = Router(context: RealtimeRequestContext.self)
        router.add(middleware: RealtimeAuthenticationMiddleware(hub: self))
        router.ws(RouterPath(Self.path)) { _, context in
            context.identity == nil ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let identity = context.requestContext.identity else { return }
            // One more socket than `socketsPerUser` gets the refusal as its only frame.
            guard let reservation = self.socketQuota.reserve(identity.userID) else {
                try? await outbound.write(.text(RealtimeFrame.error(.tooManySockets(self.settings.socketsPerUser))))
                try? await outbound.close(.policyViolation, reason: "too_many_sockets")
                return
            }
            defer { self.socketQuota.release(reservation) }
            await RealtimeConnection(hub: self, identity: identity).serve(inbound: inbound, outbound: outbound)
        }
        return router
    }

    /// `GET /v1/realtime` without an upgrade (or with a refused one): the authentication
    /// error, or 426 `websocket_required`. A ticket is only looked at, not used up.
    package func addFallbackRoute(to router: Router<KindredRequestContext>) {
        router.get(RouterPath(Self.path)) { request, _ -> Response in
            _ = try await self.authenticate(request, redeemTicket: false)
            throw KindredError.webSocketRequired
        }
    }

    /// The server's channel setup: HTTP/1.1 with the WebSocket upgrade on `/v1/realtime`.
    /// Every connection is finished at a graceful shutdown (`QuiescingChildChannel`), and held
    /// to `connections`' timeouts and cap (`LimitedChildChannel`).
    package func serverBuilder(connections: ConnectionSettings = ConnectionSettings()) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter().buildResponder()
        // Heartbeats are the protocol's own `ping` frames (RealtimeConnection), not WebSocket pings.
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            ws: .init(maxFrameSize: max(1 << 14, settings.maxClientFrameSize), autoPing: .disabled)
        )
        let count = ConnectionCount()
        return HTTPServerBuilder { responder in
            QuiescingChildChannel(
                inner: LimitedChildChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder, configuration: configuration
                    ),
                    settings: connections, count: count
                )
            )
        }
    }
}
