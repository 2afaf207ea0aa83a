import KindredServerCore
import Foundation
import HTTPTypes
import Hummingbird
import KindredStore
import Logging

/// The operators' admin console under `/admin`: server-rendered pages (mustache), a server-side
/// session in an HttpOnly, SameSite=Strict cookie scoped to `/admin`, a CSRF token in every form,
/// and a rate-limited login. docs/admin.md describes the pages and their security properties.
struct AdminConsole: Sendable {
    /// The session cookie's name.
    static let sessionCookie = "kindred_admin_session"
    /// The login form's CSRF cookie (double submit: the form's `csrf` field must equal it).
    static let loginCookie = "kindred_admin_login"
    /// The rate-limit window of failed logins.
    static let loginWindow: Duration = .seconds(15 * 60)

    let operators: AdminOperators
    let sessions: AdminSessions
    let settings: AdminSettings
    let trustedProxies: TrustedProxies
    /// Whether loopback clients skip the per-address login limit (`auth.loopbackExempt`).
    let loopbackExempt: Bool
    let rateLimiter: RateLimiter
    let queue: WorkQueue
    let subscriptions: any AdminSubscriptionDirectory
    let templates: AdminTemplates
    let logger: Logger
    /// The operators' append-only audit log.
    let audit: AdminAuditLog
    /// The account tables' reads (search, sessions, push tokens, overview numbers).
    let accounts: AdminAccounts
    /// The accounts domain: revocation and deletion through the owner's own code paths.
    let accountsController: AccountsController
    /// Disabling and enabling accounts (as `kindred users disable` does).
    let administration: AccountAdministration
    /// The scheduler (jobs page, run now).
    let jobs: JobScheduler
    /// Every domain's overview section.
    let overviews: AdminOverviews
    /// What the overview says about the server.
    let health: AdminHealth
    /// This replica's realtime hub (the realtime page's connections, channels and events).
    let realtime: RealtimeHub
    /// This replica's queue worker (the queues page's throughput and failures).
    let worker: QueueWorker

    /// Adds the console's routes to `router`.
    func register(on router: Router<KindredRequestContext>) {
        let group = router.group("admin").add(middleware: AdminPageMiddleware(console: self))
        group.get { request, _ in try await overviewPage(request) }
        group.get("admin.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=300"],
                body: .init(byteBuffer: templates.stylesheet)
            )
        }
        group.get("admin.js") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "max-age=300"],
                body: .init(byteBuffer: templates.script)
            )
        }
        registerOperations(on: group)
        group.get("login") { request, context in try await loginPage(request, context: context) }
        group.post("login") { request, context in try await logIn(request, context: context) }
        group.post("logout") { request, context in try await logOut(request, context: context) }
        group.get("dead-letters") { request, _ in try await deadLettersPage(request) }
        group.post("dead-letters/redrive") { request, context in try await redrive(request, context: context) }
        group.get("subscriptions") { request, _ in try await subscriptionsPage(request) }
        group.get("subscriptions/:user") { request, context in try await detailPage(request, context: context) }
        group.post("subscriptions/:user/refresh") { request, context in
            try await detailAction(request, context: context, sync: false)
        }
        group.post("subscriptions/:user/sync") { request, context in
            try await detailAction(request, context: context, sync: true)
        }
        group.post("backfills/:kind") { request, context in try await backfill(request, context: context) }
    }

    // MARK: - Sessions and forms

    /// The session `AdminPageMiddleware` resumed for the request being handled (nil outside it).
    @TaskLocal static var resumed: AdminResumedSession? = nil

    /// The live session of the request's cookie (as the middleware resumed it).
    /// - Throws: `AdminRefusal.loginRequired` when there is none.
    func session(_ request: Request) async throws -> AdminSession {
        guard let session = try await liveSession(request) else { throw AdminRefusal.loginRequired }
        return session
    }

    /// The live session of the request's cookie, or nil: the one the middleware resumed, else
    /// resumed now.
    func liveSession(_ request: Request) async throws -> AdminSession? {
        if let resumed = Self.resumed { return resumed.session }
        guard let token = request.cookies[Self.sessionCookie]?.value else { return nil }
        return try await sessions.resume(token: token)
    }

    /// The session and the form of a POST whose CSRF token matches the session's.
    /// - Throws: `AdminRefusal.noSession` without a live session, `.csrf` when the token is
    ///   missing or wrong (compared in constant time).
    func postedForm(_ request: Request, context: KindredRequestContext) async throws -> (AdminSession, AdminForm) {
        let form = try await Self.form(request, context: context)
        guard let session = try await liveSession(request) else { throw AdminRefusal.noSession }
        guard let sent = form.raw("csrf"), ConstantTime.equals(sent, session.csrfToken) else { throw AdminRefusal.csrf }
        return (session, form)
    }

    /// The URL-encoded body of a POST (empty for any other content type).
    static func form(_ request: Request, context: KindredRequestContext) async throws -> AdminForm {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else { return AdminForm(encoded: "") }
        return AdminForm(encoded: Substring(String(buffer: body)))
    }

    /// The query string of a GET as a form.
    static func query(_ request: Request) -> AdminForm {
        AdminForm(encoded: Substring(request.uri.query ?? ""))
    }

    /// A console cookie: HttpOnly, SameSite=Strict, `Path=/admin`, `Secure` behind TLS.
    func cookie(_ name: String, value: String, maxAge: Int, request: Request, context: KindredRequestContext) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: "/admin", secure: isSecure(request, context: context),
            httpOnly: true, sameSite: .strict
        )
    }

    /// Whether the browser reached the console over TLS: always when `admin.secureCookies` is
    /// set, else when a trusted proxy says `X-Forwarded-Proto: https`.
    func isSecure(_ request: Request, context: KindredRequestContext) -> Bool {
        if settings.secureCookies { return true }
        guard let peer = context.peerAddress, trustedProxies.trusts(peer) else { return false }
        return request.headers[.xForwardedProto]?.lowercased() == "https"
    }

    /// The view of a session for the templates.
    static func view(_ session: AdminSession) -> AdminViews.Session {
        AdminViews.Session(csrfToken: session.csrfToken, email: session.email)
    }

    /// Records an action in the audit log, then leaves `notice` for the page the action redirects to.
    func audited(_ session: AdminSession, _ action: String, target: String, notice: String) async throws {
        try await audit.record(operatorID: session.operatorID, email: session.email, action: action, target: target, detail: notice)
        logger.notice("admin \(action)", metadata: ["operator": "\(session.operatorID)", "target": "\(target)"])
        try await sessions.setFlash(notice, for: session)
    }

    /// A 303 to `location` (after a form, so a reload does not post again).
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

/// What `AdminPageMiddleware` found for a request's cookie: a live session, or none.
struct AdminResumedSession: Sendable {
    /// The live session; nil when the cookie is missing or names no live session.
    var session: AdminSession?
}

extension HTTPField.Name {
    /// `X-Forwarded-Proto`, believed only from trusted proxies.
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
