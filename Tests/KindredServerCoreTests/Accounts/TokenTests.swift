@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Synchronization
import Testing

/// Access tokens, refresh rotation with its grace window and reuse detection, and logout.
@Suite struct TokenTests {
    @Test(arguments: Backend.all)
    func refreshRotatesThePair(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let first = try await client.anonymous()
            let response = try await client.refresh(first.refreshToken)
            #expect(response.status == .ok)
            let second = try response.decode(SessionBody.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.user.id == first.user.id)
            #expect(second.isNewUser == false)
            #expect(try await client.call(.get, "/v1/me", token: second.accessToken).status == .ok)
            #expect(try await client.call(.get, "/v1/me", token: first.accessToken).status == .ok)
            #expect(try await client.refresh(second.refreshToken).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func aRetryWithinTenSecondsGetsTheSameSuccessorPair(backend: Backend) async throws {
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: backend, clock: clock) { _, client in
            let first = try await client.anonymous()
            let a = try await client.refresh(first.refreshToken).decode(SessionBody.self)
            clock.advance(by: .seconds(10))
            let retry = try await client.refresh(first.refreshToken)
            #expect(retry.status == .ok)
            let b = try retry.decode(SessionBody.self)
            #expect(b.refreshToken == a.refreshToken)
            #expect(b.accessToken == a.accessToken)
            #expect(try await client.refresh(a.refreshToken).status == .ok)
        }
    }

    @Test(arguments: Backend.all)
    func reuseAfterTheGraceWindowRevokesTheWholeFamily(backend: Backend) async throws {
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: backend, clock: clock) { _, client in
            let first = try await client.anonymous()
            let successor = try await client.refresh(first.refreshToken).decode(SessionBody.self)
            clock.advance(by: .milliseconds(10_001))
            let reused = try await client.refresh(first.refreshToken)
            #expect(reused.status == .unauthorized)
            #expect(reused.errorCode == "refresh_token_reused")
            #expect(try await client.refresh(successor.refreshToken).errorCode == "invalid_refresh_token")
            let me = try await client.call(.get, "/v1/me", token: successor.accessToken)
            #expect(me.errorCode == "session_revoked")
            // The first access token belongs to the same, now revoked, session.
            #expect(try await client.call(.get, "/v1/me", token: first.accessToken).errorCode == "session_revoked")
        }
    }

    @Test func otherSessionsSurviveOneFamilysRevocation() async throws {
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: .sqlite, clock: clock) { _, client in
            _ = try await client.signUp("two-phones@example.com")
            let phoneA = try await client.logIn("two-phones@example.com").decode(SessionBody.self)
            let phoneB = try await client.logIn("two-phones@example.com").decode(SessionBody.self)
            _ = try await client.refresh(phoneA.refreshToken)
            clock.advance(by: .seconds(11))
            #expect(try await client.refresh(phoneA.refreshToken).errorCode == "refresh_token_reused")
            #expect(try await client.call(.get, "/v1/me", token: phoneB.accessToken).status == .ok)
            #expect(try await client.refresh(phoneB.refreshToken).status == .ok)
        }
    }

    @Test(arguments: [
        "", "short", String(repeating: "A", count: 43), String(repeating: "*", count: 43),
        String(repeating: "A", count: 44),
    ])
    func unknownRefreshTokensAreInvalid(token: String) async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            let response = try await client.refresh(token)
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "invalid_refresh_token")
        }
    }

    @Test func refreshTokensBelongToTheirAppAndExpireAfterThirtyDays() async throws {
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: .sqlite, clock: clock) { _, client in
            let session = try await client.anonymous(app: "closer")
            #expect(try await client.refresh(session.refreshToken, app: "pulse").errorCode == "invalid_refresh_token")
            clock.advance(by: .seconds(30 * 86_400))
            #expect(try await client.refresh(session.refreshToken).errorCode == "invalid_refresh_token")
        }
    }

    @Test func accessTokensExpireAfterFifteenMinutes() async throws {
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: .sqlite, clock: clock) { _, client in
            let session = try await client.anonymous()
            clock.advance(by: .seconds(899))
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .ok)
            clock.advance(by: .seconds(1))
            let expired = try await client.call(.get, "/v1/me", token: session.accessToken)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorCode == "token_expired")
            #expect(expired.headers[.wwwAuthenticate] == #"Bearer realm="kindred", error="invalid_token""#)
        }
    }

    @Test func badBearerTokensAreRefusedWithTypedCodes() async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            let session = try await client.anonymous()
            // The real token is verified (and remembered) first: its forgeries must still fail.
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .ok)
            let missing = try await client.call(.get, "/v1/me")
            #expect(missing.status == .unauthorized)
            #expect(missing.errorCode == "missing_token")
            #expect(missing.headers[.wwwAuthenticate] == #"Bearer realm="kindred""#)

            let basic = try await client.call(.get, "/v1/me", headers: [.authorization: "Basic dXNlcjpwYXNz"])
            #expect(basic.errorCode == "invalid_token")

            var tampered = Array(session.accessToken)
            let index = tampered.count - 5
            tampered[index] = tampered[index] == "A" ? "B" : "A"
            #expect(try await client.call(.get, "/v1/me", token: String(tampered)).errorCode == "invalid_token")

            let parts = session.accessToken.split(separator: ".")
            let noneAlg = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.\(parts[1])."
            #expect(try await client.call(.get, "/v1/me", token: noneAlg).errorCode == "invalid_token")
            #expect(try await client.call(.get, "/v1/me", token: "a.b.c").errorCode == "invalid_token")
            #expect(try await client.call(.get, "/v1/me", token: String(repeating: "x", count: 5000)).errorCode == "invalid_token")

            // A Closer token is no key to Pulse.
            let otherApp = try await client.call(.get, "/v1/me", app: "pulse", token: session.accessToken)
            #expect(otherApp.status == .unauthorized)
            #expect(otherApp.errorCode == "invalid_token")
        }
    }

    @Test(arguments: Backend.all)
    func logoutRevokesTheSession(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let session = try await client.anonymous()
            let logout = try await client.call(.post, "/v1/auth/logout", token: session.accessToken)
            #expect(logout.status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).errorCode == "session_revoked")
            #expect(try await client.refresh(session.refreshToken).errorCode == "invalid_refresh_token")
            #expect(try await client.call(.post, "/v1/auth/logout", token: session.accessToken).errorCode == "session_revoked")
        }
    }

    @Test(arguments: Backend.all)
    func tokensOutliveTheRouterThatIssuedThem(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let first = try await TestApplication(database: database)
            let captured = Mutex<SessionBody?>(nil)
            try await first.app.test(.router) { client in
                let session = try await client.anonymous()
                captured.withLock { $0 = session }
            }
            let session = try #require(captured.withLock { $0 })
            // A second server on the same database (a restart, or another replica) accepts them.
            let second = try await TestApplication(database: database)
            try await second.app.test(.router) { client in
                let me = try await client.call(.get, "/v1/me", token: session.accessToken)
                #expect(me.status == .ok)
                let refreshed = try await client.refresh(session.refreshToken)
                #expect(refreshed.status == .ok)
            }
            let keys = try await database.sql.count("kindred_signing_keys")
            #expect(keys == 1)
        }
    }
}
