import KindredAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The middleware of `KindredSession.client`: names the app on every request and, on the
/// routes that need an account, sends the session's bearer token, refreshing it shortly before
/// it expires and once after a 401 (then retrying the request once).
struct SessionMiddleware: ClientMiddleware {
    /// The operations that take no bearer token: sign-in, refresh and the operational routes.
    static let operationsWithoutToken: Set<String> = [
        Operations.GetHealth.id, Operations.GetReady.id, Operations.GetMetrics.id,
        Operations.GetOpenAPIDocument.id, Operations.SignUpAnonymously.id,
        Operations.SignUpWithPassword.id, Operations.LogInWithPassword.id,
        Operations.SignInWithApple.id, Operations.SignInWithGoogle.id, Operations.RefreshSession.id,
    ]

    /// The most of a refused answer's body that is read (and dropped) before the retry.
    static let drainLimit = 64 * 1024

    private let app: Components.Schemas.AppID
    private let session: KindredSession?

    /// Tokens from `session` on every route that needs them.
    init(session: KindredSession) {
        self.app = session.app
        self.session = session
    }

    /// Only the app header: for the session's own sign-in and refresh calls.
    init(app: Components.Schemas.AppID) {
        self.app = app
        self.session = nil
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.kindredApp] = app.rawValue
        guard let session, !Self.operationsWithoutToken.contains(operationID) else {
            return try await next(request, body, baseURL)
        }
        let token = try await session.accessTokenForRequest()
        request.headerFields[.authorization] = "Bearer \(token)"
        let (response, responseBody) = try await next(request, body, baseURL)
        // A body that can be sent only once cannot be retried: the 401 is the answer.
        guard response.status == .unauthorized, body.map({ $0.iterationBehavior == .multiple }) ?? true else {
            return (response, responseBody)
        }
        // Read the refused answer to its end so its connection can be reused; its content
        // (and a failure to read it) does not matter, the retry's answer does.
        if let responseBody { _ = try? await Data(collecting: responseBody, upTo: Self.drainLimit) }
        let fresh = try await session.accessToken(replacing: token)
        request.headerFields[.authorization] = "Bearer \(fresh)"
        return try await next(request, body, baseURL)
    }
}

extension HTTPField.Name {
    /// `X-Kindred-App`: the app a request belongs to.
    static let kindredApp = HTTPField.Name("X-Kindred-App")!
}
