import Hummingbird
import Logging
import NIOCore

/// The request context of every Kindred route: Hummingbird's core storage plus what the
/// middleware learns about the request (its id, its app, the body limit).
public struct KindredRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, endpoint path, parameters).
    public var coreContext: CoreRequestContextStorage
    /// The request id, from `X-Request-ID` or generated; set by `KindredMiddleware`.
    public var requestID: String = ""
    /// The app the request names; nil on the routes that need none (`/health`, …).
    public var app: AppConfiguration?
    /// The largest body a route may collect, set by `KindredMiddleware`.
    public var maxUploadSize: Int = 1 << 20
    /// The TCP peer's address (nil in router tests, which have no socket).
    public var remoteAddress: SocketAddress?

    /// The TCP peer's IP address (nil in router tests, which have no socket). Written out when
    /// asked for: most routes never need it.
    public var peerAddress: String? { remoteAddress?.ipAddress }

    /// Creates the context for a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
