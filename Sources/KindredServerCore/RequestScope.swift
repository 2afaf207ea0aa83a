import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What a handler of the generated API needs to know about its request, bound to the task for
/// the duration of the request (the generated handlers receive only their typed input).
package struct RequestScope: Sendable {
    /// The scope of the request the current task serves; nil outside a request.
    @TaskLocal package static var current: RequestScope?

    /// The app the request names (nil on the operational routes).
    package var app: AppConfiguration?
    /// The request's header fields.
    package var headers: HTTPFields
    /// The TCP peer (nil in router tests, which have no socket).
    package var peer: SocketAddress?
    /// The proxies whose `X-Forwarded-For` is believed.
    package var trustedProxies: TrustedProxies
    /// The request's logger, carrying its request id.
    package var logger: Logger

    /// The raw `Authorization` header.
    package var authorization: String? { headers.value(.authorization) }

    /// The client's address: the peer, or from `X-Forwarded-For` behind a trusted proxy ("unknown"
    /// without a socket). Worked out when asked for: only the rate-limited routes need it.
    package var clientAddress: String {
        trustedProxies.clientAddress(peer: peer?.ipAddress, forwardedFor: headers[values: .xForwardedFor])
    }

    /// The client as per-address limits count it: `clientAddress`, an IPv6 one cut to its
    /// network prefix (`TrustedProxies.ipv6ClientPrefixLength`, /64 by default), so a client
    /// rotating addresses within its /64 stays one client.
    package var addressKey: String {
        trustedProxies.rateLimitKey(for: clientAddress)
    }

    /// The current request's scope.
    /// - Throws: `KindredError.internal` when called outside a request (a wiring bug).
    package static func require() throws -> RequestScope {
        guard let current else { throw KindredError.internal }
        return current
    }

    /// The current request's app.
    /// - Throws: `missingApp` on a route that was exempted from naming one.
    package static func requireApp() throws -> AppConfiguration {
        guard let app = try require().app else { throw KindredError.missingApp }
        return app
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`, believed only from trusted proxies.
    package static let xForwardedFor = Self("X-Forwarded-For")!
}
