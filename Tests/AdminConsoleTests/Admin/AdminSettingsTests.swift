@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Testing

/// The `admin.*` keys.
@Suite struct AdminSettingsTests {
    @Test func defaultsAndEnvironment() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.admin
        #expect(defaults == AdminSettings())
        #expect(defaults.secureCookies == false)
        #expect(defaults.sessionLifetime == .seconds(43_200) && defaults.idleTimeout == .seconds(1800))
        #expect(defaults.loginFailuresPerOperator == 5 && defaults.loginFailuresPerAddress == 20)
        #expect(defaults.defaultTimeZone == "UTC")

        let set = try await ServerSettings.resolve(
            flags: .init(),
            environment: [
                "KINDRED_ADMIN_SECURE_COOKIES": "true", "KINDRED_ADMIN_SESSION_HOURS": "2", "KINDRED_ADMIN_IDLE_MINUTES": "5",
                "KINDRED_ADMIN_LOGIN_FAILURES_PER_OPERATOR": "3", "KINDRED_ADMIN_LOGIN_FAILURES_PER_ADDRESS": "7",
                "KINDRED_ADMIN_TIME_ZONE": "Asia/Kolkata",
            ]
        ).server.admin
        #expect(set.secureCookies)
        #expect(set.sessionLifetime == .seconds(7200) && set.idleTimeout == .seconds(300))
        #expect(set.loginFailuresPerOperator == 3 && set.loginFailuresPerAddress == 7)
        #expect(set.defaultTimeZone == "Asia/Kolkata")
    }

    @Test func aNonPositiveLimitIsRefused() async throws {
        await #expect(throws: ServerSettings.Invalid(description: "admin.idleMinutes must be at least 1, not 0")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_ADMIN_IDLE_MINUTES": "0"])
        }
        await #expect(throws: ServerSettings.Invalid(
            description: #"admin.timeZone must be UTC or an IANA time zone name such as Europe/Paris, not "GMT+1""#
        )) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_ADMIN_TIME_ZONE": "GMT+1"])
        }
    }
}
