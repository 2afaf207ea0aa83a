@testable import AdminConsole
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Issue 21, item 1, for the console: concurrent wrong passwords for one operator are evaluated
/// at most up to the limit, because each attempt is reserved before its password hash.
@Suite struct AdminLoginBruteForceTests {
    @Test(arguments: Backend.all)
    func twoHundredConcurrentGuessesForOneOperatorEvaluateAtMostTheLimit(backend: Backend) async throws {
        try await AdminTestApp.run(on: backend) { _, client in
            let form = try await client.adminGet("/admin/login")
            let token = try #require(form.cookieValue(AdminTestCookies.login))
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        try await client.adminPost(
                            "/admin/login", cookies: [AdminTestCookies.login: token],
                            fields: [("csrf", token), ("email", AdminTestApp.email), ("password", "wrong password")]
                        ).status
                    }
                }
                var statuses: [HTTPResponse.Status: Int] = [:]
                for try await status in group { statuses[status, default: 0] += 1 }
                return statuses
            }
            let limit = AdminSettings().loginFailuresPerOperator
            #expect(statuses[.unauthorized] == limit)
            #expect(statuses[.tooManyRequests] == 200 - limit)
            // The operator stays locked, even for the right password.
            #expect(try await client.adminLogInResponse().status == .tooManyRequests)
        }
    }

    @Test func aRightPasswordGivesTheAddressReservationBack() async throws {
        var settings = AdminSettings()
        settings.loginFailuresPerAddress = 3
        try await AdminTestApp.run(settings: settings) { _, client in
            var statuses: [HTTPResponse.Status] = []
            for email in ["a@example.com", "b@example.com"] {
                statuses.append(try await client.adminLogInResponse(email: email, password: "wrong").status)
            }
            for _ in 0..<3 { statuses.append(try await client.adminLogInResponse().status) }
            for email in ["c@example.com", "d@example.com"] {
                statuses.append(try await client.adminLogInResponse(email: email, password: "wrong").status)
            }
            #expect(statuses == [.unauthorized, .unauthorized, .seeOther, .seeOther, .seeOther, .unauthorized, .tooManyRequests])
        }
    }
}
