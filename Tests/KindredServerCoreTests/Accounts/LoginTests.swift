@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `POST /v1/auth/login` and its failure limits.
@Suite struct LoginTests {
    @Test(arguments: Backend.all)
    func loginReturnsANewSessionOfTheSameAccount(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let signedUp = try await client.signUp("linus@example.com")
            let response = try await client.logIn("  LINUS@example.com")
            #expect(response.status == .ok)
            let session = try response.decode(SessionBody.self)
            #expect(session.user.id == signedUp.user.id)
            #expect(session.isNewUser == false)
            #expect(session.refreshToken != signedUp.refreshToken)
        }
    }

    @Test func wrongPasswordAndUnknownEmailGetTheSameAnswer() async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            _ = try await client.signUp("ken@example.com")
            let wrong = try await client.logIn("ken@example.com", password: "not the password")
            let unknown = try await client.logIn("nobody@example.com")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text == unknown.text)
            #expect(wrong.errorCode == "invalid_credentials")
        }
    }

    @Test func fiveFailuresLockTheAccountForFifteenMinutes() async throws {
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: .sqlite, clock: clock) { _, client in
            _ = try await client.signUp("dennis@example.com")
            for _ in 0..<5 {
                #expect(try await client.logIn("dennis@example.com", password: "guess guess").status == .unauthorized)
                clock.advance(by: .seconds(60))
            }
            // Even the right password waits now, until the first failure leaves the 15-minute window.
            let locked = try await client.logIn("dennis@example.com")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "600")
            clock.advance(by: .seconds(599))
            #expect(try await client.logIn("dennis@example.com").status == .tooManyRequests)
            clock.advance(by: .seconds(1))
            #expect(try await client.logIn("dennis@example.com").status == .ok)
        }
    }

    @Test func aSuccessfulLoginClearsTheAccountsFailures() async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            _ = try await client.signUp("barbara@example.com")
            for _ in 0..<4 { _ = try await client.logIn("barbara@example.com", password: "wrong wrong") }
            #expect(try await client.logIn("barbara@example.com").status == .ok)
            for _ in 0..<4 { _ = try await client.logIn("barbara@example.com", password: "wrong wrong") }
            #expect(try await client.logIn("barbara@example.com").status == .ok)
        }
    }

    @Test func twentyFailuresFromOneAddressBlockThatAddress() async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            for attempt in 0..<20 {
                let response = try await client.logIn("user\(attempt)@example.com", password: "whatever it is")
                #expect(response.status == .unauthorized)
            }
            let blocked = try await client.logIn("someone-else@example.com", password: "whatever it is")
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.errorCode == "rate_limited")
        }
    }

    @Test(arguments: Backend.all)
    func aDisabledAccountCannotSignInOrUseItsTokens(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let session = try await client.signUp("mallory@example.com")
            try await application.database.sql.update("kindred_users").set("disabled_at", to: 1)
                .where("id", .equal, session.user.id).run()
            let login = try await client.logIn("mallory@example.com")
            #expect(login.status == .forbidden)
            #expect(login.errorCode == "account_disabled")
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).errorCode == "account_disabled")
            #expect(try await client.refresh(session.refreshToken).errorCode == "account_disabled")
        }
    }
}
