import KindredServerCore
import HTTPTypes
import Hummingbird
import Logging

/// Renders the console's refusals and failures as pages (not the API's JSON envelope), and puts
/// the security headers on every console response: no caching, no framing, no scripts, forms
/// posted only to this origin.
struct AdminPageMiddleware: RouterMiddleware {
    typealias Context = KindredRequestContext

    let console: AdminConsole

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            // The session is resumed once per request (not for the style sheet and script): the
            // handler reads it from `AdminConsole.resumed`, and dates render in its operator's zone.
            let path = request.uri.path
            let resumed: AdminSession? = if path.hasSuffix(".css") || path.hasSuffix(".js") {
                nil
            } else if let token = request.cookies[AdminConsole.sessionCookie]?.value {
                try await console.sessions.resume(token: token)
            } else {
                nil
            }
            response = try await AdminConsole.$resumed.withValue(AdminResumedSession(session: resumed)) {
                try await AdminTimeZone.$current.withValue(resumed?.timeZone ?? .utc) {
                    try await next(request, context)
                }
            }
        } catch let refusal as AdminRefusal {
            response = try await page(for: refusal, request: request)
        } catch {
            // Hummingbird's own 4xx (a body over the limit, …) as a page; anything else is a bug,
            // logged by the mapping (as the API's errors are) and shown without its details.
            let mapped = KindredError(mapping: error, logger: context.logger)
            let internalError = mapped.status.code >= 500
            response = console.templates.page(
                "message",
                AdminViews.Message(
                    title: internalError ? "Error" : "Refused", session: nil,
                    message: internalError ? "Internal error: the action failed." : mapped.message
                ),
                status: mapped.status
            )
        }
        response.headers[.cacheControl] = "no-store"
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        return response
    }

    private func page(for refusal: AdminRefusal, request: Request) async throws -> Response {
        if refusal == .loginRequired { return AdminConsole.redirect(to: "/admin/login") }
        let session = try? await console.session(request)
        return console.templates.page(
            "message",
            AdminViews.Message(
                title: refusal.status == 403 ? "Forbidden" : "Refused", session: session.map(AdminConsole.view),
                message: refusal.message
            ),
            status: .init(code: refusal.status)
        )
    }
}

extension HTTPField.Name {
    /// `X-Frame-Options`.
    static let xFrameOptions = Self("X-Frame-Options")!
    /// `Referrer-Policy`.
    static let referrerPolicy = Self("Referrer-Policy")!
}
