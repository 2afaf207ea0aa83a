import DeviceIntegrity
import HTTPTypes
import Hummingbird
import Logging

extension HTTPField.Name {
    /// `Kindred-Device-Key`: the device whose integrity verdict a request relies on (an App Attest
    /// key id in base64, or the Play Integrity device id the verdict was submitted with).
    public static let kindredDeviceKey = Self("Kindred-Device-Key")!
}

/// Applies the operator's integrity policy to the routes it covers: a request whose device has no
/// passing, fresh verdict is logged, held to a tighter rate limit, or refused with 403
/// `integrity_required`, as the most specific rule for its app and path says.
///
/// The verdict is the signed-in user's, for the app and the device named in `Kindred-Device-Key`;
/// a request without a bearer token or without the header has a missing verdict. A bearer token
/// that does not authenticate is refused as the route itself would (401). `/v1/auth/*` and
/// `/v1/integrity/*` are never covered (a device must reach them to earn a verdict). Added to the router
/// only when the policy has rules, so uncovered deployments pay nothing.
struct IntegrityMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    let service: IntegrityService
    let accounts: AccountsController

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let app = context.app else { return try await next(request, context) }
        let path = request.uri.path
        // Sign-in and the integrity routes are how a device earns a verdict: never held back.
        guard !path.hasPrefix("/v1/integrity/"), !path.hasPrefix("/v1/auth/"), service.settings.policy.rule(app: app.id.rawValue, path: path) != nil else {
            return try await next(request, context)
        }
        var userID: String?
        if request.headers.value(.authorization) != nil, let scope = RequestScope.current {
            userID = try await accounts.authenticate(scope, app: app).id
        }
        let verdict: DeviceVerdict
        if let userID, let device = request.headers.value(.kindredDeviceKey), IntegrityService.isDeviceID(device) {
            verdict = try await service.store.currentVerdict(
                userID: userID, app: app.id, device: device, lifetime: service.settings.verdictLifetime
            )
        } else {
            verdict = .missing
        }
        guard let action = service.settings.policy.action(for: verdict, app: app.id.rawValue, path: path) else {
            return try await next(request, context)
        }
        var metadata: Logger.Metadata = [
            "integrity_action": .string(action.rawValue), "verdict": .string(verdict.name), "route": .string(path),
        ]
        if let userID { metadata["user_id"] = .string(userID) }
        if case .failed(let reason) = verdict { metadata["reason"] = .string(reason) }
        context.logger.notice("device integrity not passed", metadata: metadata)
        switch action {
        case .log:
            break
        case .limit:
            let who = userID ?? RequestScope.current?.addressKey ?? "unknown"
            try await service.rateLimiter.enforce(
                key: "integrity-limit:\(app.id.rawValue):\(who)", limit: service.settings.limitedRequestsPerMinute,
                window: .seconds(60), logger: context.logger
            )
        case .refuse:
            throw KindredError.integrityRequired
        }
        return try await next(request, context)
    }
}
