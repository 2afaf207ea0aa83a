import HTTPTypes
import Hummingbird
import Logging
import Metrics

extension HTTPField.Name {
    /// `X-Request-ID`: the id of one request, echoed on its response and written to the logs.
    public static let xRequestID = Self("X-Request-ID")!
    /// `X-Kindred-App`: the app a request belongs to.
    public static let xKindredApp = Self("X-Kindred-App")!
}

/// What every request goes through before its route, as one layer. In order:
///
/// 1. **Request id.** Takes the caller's `X-Request-ID` (1–128 visible ASCII characters) or makes
///    one, puts it in the request's logger metadata, and echoes it on the response, errors
///    included.
/// 2. **Errors.** Anything thrown below (this layer's own refusals included) becomes the JSON
///    envelope (`KindredError(mapping:)`) before it is counted and logged.
/// 3. **Body limit.** Refuses bodies over `bodyLimit` bytes with 413 `payload_too_large`: at once
///    when `Content-Length` says so, and while reading when the body comes without a length.
///    Routes that collect bodies through the context (`maxUploadSize`) are held to the same limit.
/// 4. **App.** Requires every request, except on the operational routes (`appExemptPaths`,
///    `/admin`), to name an enabled app in `X-Kindred-App`, and puts its configuration in the
///    context.
/// 5. **Scope.** Binds `RequestScope.current` for the route.
/// 6. **Metrics and the log line.** Counts and times every request by method, route pattern and
///    status (`kindred_http_requests_total`, `kindred_http_request_duration_seconds`, through the
///    swift-metrics factory it is given: Prometheus in the server, no global bootstrap), and logs
///    one line per request (method, route pattern, status, duration).
///
/// These were six middlewares, one per step. Each layer of Hummingbird's chain is a few async
/// calls (the responder, the middleware, the `next` closure and its thunks), each entered through
/// an executor check, plus a copy of the context. Counted per request with uprobes on the
/// concurrency runtime: `GET /health` made 76 executor checks against the bare server's 31, and
/// one layer took `GET /v1/me` from 87 to 52. It does the same steps in the same order.
struct KindredMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    /// The routes that belong to no app (`/v1/realtime` takes its app from the header or the ticket
    /// itself; the billing webhooks find the app through the user the event names). The console's
    /// pages (`/admin…`) and the contracts (`/openapi/…`) are exempt by prefix.
    static let appExemptPaths: Set<String> = [
        "/", "/health", "/ready", "/metrics", "/openapi.yaml", "/v1/realtime", "/v1/webhooks/revenuecat", "/v1/webhooks/stripe",
    ]

    /// Makes the ids of requests that bring none.
    let ids = RequestIDGenerator()
    /// The counter and timer of each method, route and status.
    let instruments: RequestInstruments
    let bodyLimit: Int
    let apps: AppRegistry
    let trustedProxies: TrustedProxies

    init(metrics: any MetricsFactory, bodyLimit: Int, apps: AppRegistry, trustedProxies: TrustedProxies) {
        instruments = RequestInstruments(factory: metrics)
        self.bodyLimit = bodyLimit
        self.apps = apps
        self.trustedProxies = trustedProxies
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let id = request.headers.value(.xRequestID).flatMap(Self.acceptedRequestID) ?? ids.next()
        context.requestID = id
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = ContinuousClock.now
        var response: Response
        do {
            context.maxUploadSize = bodyLimit
            var request = request
            if try mustCollectBody(of: request) {
                do {
                    _ = try await request.collectBody(upTo: bodyLimit)
                } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                    throw BodyLimitExceeded(limit: bodyLimit)
                }
            }
            context.app = try app(of: request)
            let scope = RequestScope(
                app: context.app, headers: request.headers, peer: context.remoteAddress,
                trustedProxies: trustedProxies, logger: context.logger
            )
            response = try await RequestScope.$current.withValue(scope) {
                try await next(request, context)
            }
        } catch {
            response = KindredError(mapping: error, logger: context.logger).response()
        }
        let elapsed = ContinuousClock.now - start
        // The route pattern (`/v1/closer/invites/{code}`), never the raw path: paths carry invite
        // codes and push tokens, which neither metric labels nor logs may contain (and patterns
        // keep the labels bounded).
        let route = context.endpointPath ?? "unmatched"
        let pair = instruments.instruments(for: .init(method: request.method, route: route, status: response.status.code))
        pair.requests.increment()
        pair.duration.recordNanoseconds(elapsed.nanoseconds)
        response.headers[.xRequestID] = id
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "route": .string(route),
                "status": .stringConvertible(response.status.code),
                "duration_ms": .stringConvertible(elapsed.milliseconds),
            ]
        )
        return response
    }

    /// The caller's request id, if it is 1–128 visible ASCII characters.
    static func acceptedRequestID(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return nil
        }
        return value
    }

    /// Whether the body must be read here to hold it to the limit: false when `Content-Length`
    /// declares it (checked against the limit now) or when there is no body.
    /// - Throws: `badRequest` for a `Content-Length` that is not a number, `BodyLimitExceeded`.
    private func mustCollectBody(of request: Request) throws -> Bool {
        if let declared = request.headers.value(.contentLength) {
            guard let length = Int(declared), length >= 0 else {
                throw KindredError.badRequest("Content-Length is not a number")
            }
            guard length <= bodyLimit else { throw BodyLimitExceeded(limit: bodyLimit) }
            return false
        }
        return request.headers.value(.transferEncoding) != nil
    }

    /// The app the request names; nil on the routes that belong to no app.
    /// - Throws: `missingApp`, `unknownApp`, `appDisabled`.
    private func app(of request: Request) throws -> AppConfiguration? {
        let path = request.uri.path
        // The admin console's pages belong to no app either.
        if Self.appExemptPaths.contains(path) || path == "/admin" || path.hasPrefix("/admin/") || path.hasPrefix("/openapi/") {
            return nil
        }
        do {
            return try apps.app(named: request.headers.value(.xKindredApp))
        } catch {
            switch error {
            case .missing: throw KindredError.missingApp
            case .unknown(let name): throw KindredError.unknownApp(name)
            case .disabled(let id): throw KindredError.appDisabled(id)
            }
        }
    }
}

/// The 413 for a body over the limit, carrying the limit for the error message.
struct BodyLimitExceeded: HTTPResponseError {
    let limit: Int
    var status: HTTPResponse.Status { .contentTooLarge }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        KindredError.payloadTooLarge(limit: limit).response()
    }
}

extension HTTPFields {
    /// The value of the fields named `name`, as `self[name]` gives it (nil when there is none,
    /// several joined with commas), found with one plain pass in the usual case of one field: the
    /// subscript filters lazily and joins even a single value.
    package func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            if found != nil { return self[name] }
            found = field.value
        }
        return found
    }
}

extension Duration {
    /// Whole nanoseconds.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
