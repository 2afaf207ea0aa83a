import Hummingbird

/// Requires every request, except on the operational routes, to name an enabled app in
/// `X-Kindred-App`, and puts that app's configuration in the context.
struct AppMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    /// The routes that belong to no app (`/v1/realtime` takes its app from the header or the ticket
    /// itself; the billing webhooks find the app through the user the event names).
    static let exemptPaths: Set<String> = [
        "/health", "/ready", "/metrics", "/openapi.yaml", "/v1/realtime", "/v1/webhooks/revenuecat", "/v1/webhooks/stripe",
    ]

    let registry: AppRegistry

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if Self.exemptPaths.contains(path) || path == "/admin" || path.hasPrefix("/admin/") {
            return try await next(request, context)  // the admin console's pages belong to no app
        }
        var context = context
        do {
            context.app = try registry.app(named: request.headers[.xKindredApp])
        } catch {
            switch error {
            case .missing: throw KindredError.missingApp
            case .unknown(let name): throw KindredError.unknownApp(name)
            case .disabled(let id): throw KindredError.appDisabled(id)
            }
        }
        return try await next(request, context)
    }
}
