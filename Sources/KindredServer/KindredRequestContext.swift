import Hummingbird
import Logging

/// The request context of every Kindred route: Hummingbird's core storage plus what the
/// middleware learns about the request (its id, its app, the body limit).
public struct KindredRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, endpoint path, parameters).
    public var coreContext: CoreRequestContextStorage
    /// The request id, from `X-Request-ID` or generated; set by `RequestIDMiddleware`.
    public var requestID: String = ""
    /// The app the request names; nil on the routes that need none (`/health`, …).
    public var app: AppConfiguration?
    /// The largest body a route may collect, set by `BodyLimitMiddleware`.
    public var maxUploadSize: Int = 1 << 20
    /// The TCP peer's IP address (nil in router tests, which have no socket).
    public var peerAddress: String?

    /// Creates the context for a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }
}
