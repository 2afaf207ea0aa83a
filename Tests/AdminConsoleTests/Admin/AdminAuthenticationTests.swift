@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Who may open the console: operators only, through a rate-limited, CSRF-protected login that
/// gives an HttpOnly, SameSite=Strict session cookie scoped to `/admin`.
@Suite struct AdminAuthenticationTests {
    @Test func anonymousVisitorsAreSentToTheLoginPage() async throws {
        try await AdminTestApp.run { _, client in
            let pages = [
                "/admin", "/admin/subscriptions", "/admin/subscriptions/user-1", "/admin/dead-letters", "/admin/users",
                "/admin/users/user-1", "/admin/jobs", "/admin/queues", "/admin/push", "/admin/audit", "/admin/operators",
            ]
            for path in pages {
                let response = try await client.adminGet(path)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location] == "/admin/login", "\(path)")
            }
            let login = try await client.adminGet("/admin/login")
            #expect(login.status == .ok)
            #expect(String(buffer: login.body).contains(#"<form method="post" action="/admin/login""#))
        }
    }

    @Test func theLoginFormCarriesAStrictHttpOnlyCSRFCookie() async throws {
        try await AdminTestApp.run { _, client in
            let login = try await client.adminGet("/admin/login")
            let header = try #require(login.setCookie(AdminTestCookies.login))
            let token = try #require(login.cookieValue(AdminTestCookies.login))
            #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
            #expect(login.csrfField == token)
            #expect(header.contains("; HttpOnly") && header.contains("; SameSite=Strict") && header.contains("; Path=/admin"))
            #expect(!header.contains("Secure"))
            #expect(login.headers[.cacheControl] == "no-store")
            #expect(login.headers[.init("X-Frame-Options")!] == "DENY")
            #expect(login.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
        }
    }

    @Test func anOperatorLogsInWithASessionCookie() async throws {
        try await AdminTestApp.run { _, client in
            let response = try await client.adminLogInResponse()
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/admin")
            let header = try #require(response.setCookie(AdminTestCookies.session))
            #expect(header.contains("; HttpOnly") && header.contains("; SameSite=Strict") && header.contains("; Path=/admin"))
            #expect(header.contains("; Max-Age=43200"))
            #expect(!header.contains("Secure"))
            let cookie = try #require(response.cookieValue(AdminTestCookies.session))
            let page = try await client.adminGet("/admin/subscriptions", cookie: cookie)
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            #expect(text.contains(AdminTestApp.email))
            #expect(text.contains("tester32@example.com"))
        }
    }

    @Test func cookiesAreSecureWhenConfigured() async throws {
        var settings = AdminSettings()
        settings.secureCookies = true
        try await AdminTestApp.run(settings: settings) { _, client in
            let response = try await client.adminLogInResponse()
            #expect(response.setCookie(AdminTestCookies.session)?.contains("; Secure") == true)
        }
    }

    @Test func aLoginWithoutItsCSRFTokenIsForbidden() async throws {
        try await AdminTestApp.run { _, client in
            let form = try await client.adminGet("/admin/login")
            let token = try #require(form.cookieValue(AdminTestCookies.login))
            let credentials = [("email", AdminTestApp.email), ("password", AdminTestApp.password)]
            let attempts: [(cookies: [String: String], fields: [(String, String)])] = [
                ([AdminTestCookies.login: token], credentials),
                ([:], [("csrf", token)] + credentials),
                ([AdminTestCookies.login: token], [("csrf", String(repeating: "0", count: 64))] + credentials),
            ]
            for attempt in attempts {
                let response = try await client.adminPost("/admin/login", cookies: attempt.cookies, fields: attempt.fields)
                #expect(response.status == .forbidden)
                #expect(response.setCookie(AdminTestCookies.session) == nil)
                #expect(String(buffer: response.body).contains("security token is missing or wrong"))
            }
        }
    }

    @Test(arguments: Backend.all) func wrongPasswordsAreRateLimitedPerOperator(backend: Backend) async throws {
        let clock = TestClock(start: Date())
        try await AdminTestApp.run(on: backend, clock: clock) { _, client in
            for _ in 1...5 {
                let response = try await client.adminLogInResponse(password: "wrong password")
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("The e-mail address or password is wrong."))
            }
            let limited = try await client.adminLogInResponse()
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "900")
            #expect(limited.setCookie(AdminTestCookies.session) == nil)
            #expect(String(buffer: limited.body).contains("Too many failed logins. Try again in 900 seconds."))
            clock.advance(by: .seconds(15 * 60))
            let allowed = try await client.adminLogInResponse()
            #expect(allowed.status == .seeOther)
        }
    }

    @Test func appUsersAndBearerTokensDoNotOpenTheConsole() async throws {
        try await AdminTestApp.run { _, client in
            let user = try await client.signUp("user@example.com", password: "correct horse")
            let login = try await client.adminLogInResponse(email: "user@example.com", password: "correct horse")
            #expect(login.status == .unauthorized)
            #expect(login.setCookie(AdminTestCookies.session) == nil)
            let page = try await client.adminGet(
                "/admin/subscriptions", headers: [.authorization: "Bearer \(user.accessToken)"]
            )
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/admin/login")
            let forged = try await client.adminGet("/admin/subscriptions", cookie: user.accessToken)
            #expect(forged.status == .seeOther)
        }
    }

    @Test func logoutEndsTheSession() async throws {
        try await AdminTestApp.run { _, client in
            let browser = try await client.adminLogIn()
            let withoutToken = try await client.adminPost(
                "/admin/logout", cookies: [AdminTestCookies.session: browser.cookie], fields: []
            )
            #expect(withoutToken.status == .forbidden)
            let logout = try await client.adminPost(
                "/admin/logout", cookies: [AdminTestCookies.session: browser.cookie], fields: [("csrf", browser.csrf)]
            )
            #expect(logout.status == .seeOther)
            #expect(logout.headers[.location] == "/admin/login")
            // Hummingbird writes a cookie's attributes in no fixed order.
            let cleared = try #require(logout.setCookie(AdminTestCookies.session))
            #expect(cleared.hasPrefix("kindred_admin_session=;") && cleared.contains("; Max-Age=0"))
            let after = try await client.adminGet("/admin/subscriptions", cookie: browser.cookie)
            #expect(after.status == .seeOther)
        }
    }

    @Test func sessionsEndWhenIdleOrWhenTheOperatorIsDisabled() async throws {
        let clock = TestClock(start: Date())
        try await AdminTestApp.run(clock: clock) { app, client in
            let first = try await client.adminLogIn()
            clock.advance(by: .seconds(29 * 60))
            let r1 = try await client.adminGet("/admin/dead-letters", cookie: first.cookie)
            #expect(r1.status == .ok)
            clock.advance(by: .seconds(29 * 60))
            let r2 = try await client.adminGet("/admin/dead-letters", cookie: first.cookie)
            #expect(r2.status == .ok)
            clock.advance(by: .seconds(31 * 60))
            let r3 = try await client.adminGet("/admin/dead-letters", cookie: first.cookie)
            #expect(r3.status == .seeOther)

            let second = try await client.adminLogIn()
            let disabled = try await app.operators.setDisabled(email: AdminTestApp.email, true)
            #expect(disabled)
            let r4 = try await client.adminGet("/admin/dead-letters", cookie: second.cookie)
            #expect(r4.status == .seeOther)
            let r5 = try await client.adminLogInResponse()
            #expect(r5.status == .unauthorized)
        }
    }

    /// The per-address login limit follows `auth.loopbackExempt` as the accounts' limits do;
    /// the per-operator limit applies to every address.
    @Test(arguments: [false, true]) func theAddressLimitFollowsLoopbackExempt(exempt: Bool) async throws {
        var auth = TestApplication.testAuth
        auth.loopbackExempt = exempt
        var settings = AdminSettings()
        settings.loginFailuresPerAddress = 2
        try await AdminTestApp.run(settings: settings, auth: auth, testing: .live) { _, client in
            for email in ["a@example.com", "b@example.com"] {
                let wrong = try await client.adminLogInResponse(email: email, password: "wrong password")
                #expect(wrong.status == .unauthorized)
            }
            let third = try await client.adminLogInResponse()
            #expect(third.status == (exempt ? .seeOther : .tooManyRequests))
            guard exempt else { return }
            for _ in 1...5 {
                let wrong = try await client.adminLogInResponse(password: "wrong password")
                #expect(wrong.status == .unauthorized)
            }
            let limited = try await client.adminLogInResponse()
            #expect(limited.status == .tooManyRequests)
        }
    }
}
