import Hummingbird
import Metrics

/// Counts requests and times them by method, route pattern and status, through the
/// swift-metrics factory it is given (Prometheus in the server; no global bootstrap).
///
/// Exposed as `kindred_http_requests_total` and `kindred_http_request_duration_seconds`.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    /// The counter and timer of each method, route and status.
    let instruments: RequestInstruments

    /// Counts through `factory`.
    init(factory: any MetricsFactory) {
        instruments = RequestInstruments(factory: factory)
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // The error middleware below renders errors; count what the client will receive.
            response = KindredError(mapping: error, logger: context.logger).response()
        }
        // The route pattern (e.g. /v1/couples/{id}), never the raw path, keeps labels bounded.
        let route = context.endpointPath ?? "unmatched"
        let pair = instruments.instruments(for: .init(method: request.method, route: route, status: response.status.code))
        pair.requests.increment()
        pair.duration.recordNanoseconds((ContinuousClock.now - start).nanoseconds)
        return response
    }
}
