import Hummingbird

extension RealtimeHub {
    /// Who opens the realtime connection: from `?ticket=` (redeemed, or only looked at when
    /// `redeemTicket` is false), else from the bearer token for the app in `X-Kindred-App`.
    /// - Throws: `missingApp`/`unknownApp`/`appDisabled`, `invalidTicket`, the bearer refusals,
    ///   `sessionRevoked`, `accountDisabled`.
    func authenticate(_ request: Request, redeemTicket: Bool) async throws -> RealtimeIdentity {
        let headerApp = try request.headers[.xKindredApp].map { try app(named: $0) }
        if let ticket = request.uri.queryParameters.get("ticket") {
            let identity = redeemTicket ? try await tickets.redeem(ticket) : try await tickets.peek(ticket)
            if let headerApp, headerApp.id != identity.app { throw KindredError.invalidTicket }
            _ = try app(named: identity.app.rawValue)
            _ = try await tokens.authenticate(sessionID: identity.sessionID, userID: identity.userID)
            return identity
        }
        guard let headerApp else { throw KindredError.missingApp }
        let user = try await tokens.authenticate(authorization: request.headers[.authorization], app: headerApp.id)
        return RealtimeIdentity(userID: user.user.id, sessionID: user.sessionID, app: headerApp.id)
    }

    /// Issues a ticket for the signed-in session (`POST /v1/realtime/ticket`).
    package func issueTicket(for user: AuthenticatedUser, app: AppID) async throws -> String {
        try await tickets.issue(userID: user.user.id, sessionID: user.sessionID, app: app)
    }

    private func app(named name: String) throws -> AppConfiguration {
        do {
            return try apps.app(named: name)
        } catch {
            switch error {
            case .missing: throw KindredError.missingApp
            case .unknown(let name): throw KindredError.unknownApp(name)
            case .disabled(let id): throw KindredError.appDisabled(id)
            }
        }
    }
}
