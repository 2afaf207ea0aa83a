import KindredServerCore
import HTTPTypes
import Hummingbird
import KindredStore

extension AdminConsole {
    /// `GET /admin/login`: the form, with a fresh login CSRF token in a cookie and in the form.
    func loginPage(_ request: Request, context: KindredRequestContext) async throws -> Response {
        if try await liveSession(request) != nil {
            return Self.redirect(to: "/admin")
        }
        return loginForm(request, context: context, email: "", error: nil, status: .ok)
    }

    /// `POST /admin/login`: checks the login CSRF token, the rate limits (failed logins per
    /// operator e-mail and per client address in 15 minutes; the per-address limit is lifted for
    /// loopback clients when `auth.loopbackExempt` is set, as the accounts' are), then the
    /// password; on success starts a new session (a new token, so a planted cookie is never promoted).
    /// Each attempt is reserved against both limits before its password hash is checked, so
    /// concurrent guesses cannot all pass the limit; a right password gives the reservations back.
    func logIn(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let form = try await Self.form(request, context: context)
        guard let expected = request.cookies[Self.loginCookie]?.value, let sent = form.raw("csrf"),
            ConstantTime.equals(sent, expected)
        else { throw AdminRefusal.csrf }
        let email = String((form["email"] ?? "").lowercased().prefix(254))
        let password = form.raw("password") ?? ""
        let scope = RequestScope.current
        let address = scope?.clientAddress ?? context.peerAddress ?? "unknown"
        let operatorKey = "admin-login:" + email.prefix(150)
        let addressKey = "admin-login-address:" + (scope?.addressKey ?? trustedProxies.rateLimitKey(for: address)).prefix(100)
        let addressExempt = loopbackExempt && TrustedProxies.isLoopback(address)
        var limits = [AttemptReservations.Limit(key: operatorKey, limit: settings.loginFailuresPerOperator)]
        if !addressExempt { limits.append(.init(key: addressKey, limit: settings.loginFailuresPerAddress)) }
        let reservations = AttemptReservations(database: operators.database, clock: operators.clock, window: Self.loginWindow)
        if let seconds = try await reservations.reserve(limits) {
            var response = loginForm(
                request, context: context, email: email,
                error: "Too many failed logins. Try again in \(seconds) seconds.", status: .tooManyRequests
            )
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        let verified: AdminOperator?
        do {
            verified = try await operators.verify(email: email, password: password)
        } catch KindredError.rateLimited(let seconds) {
            // The hash queue is full: no password was evaluated, so the reservations go back.
            try await reservations.release(key: operatorKey)
            if !addressExempt { try await reservations.release(key: addressKey) }
            var response = loginForm(
                request, context: context, email: email, error: "The console is busy. Try again in \(seconds) seconds.",
                status: .tooManyRequests
            )
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        guard let signedIn = verified else {
            logger.notice("admin login failed", metadata: ["address": "\(address)"])
            return loginForm(
                request, context: context, email: email, error: "The e-mail address or password is wrong.",
                status: .unauthorized
            )
        }
        try await reservations.reset(key: operatorKey)
        if !addressExempt { try await reservations.release(key: addressKey) }
        let token = try await sessions.start(operatorID: signedIn.id)
        logger.notice("admin login", metadata: ["operator": "\(signedIn.id)"])
        try await audit.record(operatorID: signedIn.id, email: signedIn.email, action: "login", target: "", detail: "Logged in.")
        var response = Self.redirect(to: "/admin")
        let lifetime = Int(settings.sessionLifetime.milliseconds / 1000)
        response.setCookie(cookie(Self.sessionCookie, value: token, maxAge: lifetime, request: request, context: context))
        response.setCookie(cookie(Self.loginCookie, value: "", maxAge: 0, request: request, context: context))
        return response
    }

    /// `POST /admin/logout` (CSRF-checked): ends the session and clears the cookie.
    func logOut(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, _) = try await postedForm(request, context: context)
        try await audit.record(operatorID: session.operatorID, email: session.email, action: "logout", target: "", detail: "Logged out.")
        if let token = request.cookies[Self.sessionCookie]?.value { try await sessions.end(token: token) }
        var response = Self.redirect(to: "/admin/login")
        response.setCookie(cookie(Self.sessionCookie, value: "", maxAge: 0, request: request, context: context))
        return response
    }

    /// The login form with a new login CSRF token (cookie and hidden field).
    private func loginForm(
        _ request: Request, context: KindredRequestContext, email: String, error: String?, status: HTTPResponse.Status
    ) -> Response {
        let token = AdminSessions.newToken()
        var response = templates.page(
            "login", AdminViews.Login(error: error, email: email, loginToken: token), status: status
        )
        response.setCookie(cookie(Self.loginCookie, value: token, maxAge: 3600, request: request, context: context))
        return response
    }
}
