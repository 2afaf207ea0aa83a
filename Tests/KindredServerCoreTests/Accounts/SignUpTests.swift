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

/// `POST /v1/auth/anonymous` and `POST /v1/auth/signup`, on SQLite and PostgreSQL.
@Suite struct SignUpTests {
    @Test(arguments: Backend.all)
    func anonymousSignUpCreatesAnAccountAndSignsItIn(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let session = try await client.anonymous()
            #expect(session.tokenType == "Bearer")
            #expect(session.expiresIn == 900)
            #expect(session.isNewUser)
            #expect(session.refreshToken.utf8.count == 43)
            #expect(session.accessToken.split(separator: ".").count == 3)
            #expect(session.user.isAnonymous)
            #expect(session.user.providers == [])
            #expect(session.user.app == "closer")
            #expect(session.user.email == nil)
            #expect(UUID(uuidString: session.user.id) != nil && session.user.id == session.user.id.lowercased())

            let me = try await client.call(.get, "/v1/me", token: session.accessToken)
            #expect(me.status == .ok)
            #expect(try me.decode(UserBody.self) == session.user)
        }
    }

    @Test func anonymousSignUpsAreLimitedPerClientAddress() async throws {
        var auth = TestApplication.testAuth
        auth.anonymousSignUpsPerHour = 2
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: .sqlite, auth: auth, clock: clock) { _, client in
            _ = try await client.anonymous()
            clock.advance(by: .seconds(600))
            _ = try await client.anonymous()
            let refused = try await client.call(.post, "/v1/auth/anonymous")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "rate_limited")
            #expect(refused.headers[.retryAfter] == "3000")
            clock.advance(by: .seconds(3000))
            #expect(try await client.call(.post, "/v1/auth/anonymous").status == .created)
        }
    }

    @Test(arguments: Backend.all)
    func passwordSignUpNormalisesTheEmailAndHashesWithArgon2id(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let response = try await client.call(
                .post, "/v1/auth/signup",
                json: #"{"email":"  Ada.Lovelace@Example.COM ","password":"analytical engine","displayName":" Ada "}"#
            )
            #expect(response.status == .created)
            let session = try response.decode(SessionBody.self)
            #expect(session.user.email == "ada.lovelace@example.com")
            #expect(session.user.providers == ["password"])
            #expect(session.user.isAnonymous == false)
            #expect(session.user.displayName == "Ada")
            #expect(session.isNewUser)

            let row = try #require(
                try await application.database.sql.select().column("password_hash").column("subject")
                    .from("kindred_credentials").where("user_id", .equal, session.user.id).first()
            )
            let hash = try row.decode(column: "password_hash", as: String.self)
            #expect(hash.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
            #expect(!hash.contains("analytical"))
            #expect(try row.decode(column: "subject", as: String.self) == "ada.lovelace@example.com")
        }
    }

    @Test(arguments: Backend.all)
    func aDuplicateEmailInTheSameAppIsAConflict(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            _ = try await client.signUp("grace@example.com")
            let again = try await client.call(
                .post, "/v1/auth/signup", json: #"{"email":"GRACE@example.com","password":"another one"}"#
            )
            #expect(again.status == .conflict)
            #expect(again.errorCode == "email_taken")
            // Another app is another world: the same address signs up there.
            let pulse = try await client.signUp("grace@example.com", app: "pulse")
            #expect(pulse.user.app == "pulse")
        }
    }

    @Test func concurrentSignUpsWithOneEmailCreateOneAccount() async throws {
        try await TestApplication.run(on: .sqlite) { application, client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await client.call(
                            .post, "/v1/auth/signup", json: #"{"email":"race@example.com","password":"same password"}"#
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1)
            #expect(statuses.filter { $0 == .conflict }.count == 5)
            #expect(try await application.database.sql.count("kindred_users") == 1)
        }
    }

    @Test(arguments: [
        (#"{"email":"no-at-sign","password":"long enough"}"#, 400, "invalid_email"),
        (#"{"email":"a@b","password":"long enough"}"#, 400, "invalid_email"),
        (#"{"email":"a b@example.com","password":"long enough"}"#, 400, "invalid_email"),
        (#"{"email":"","password":"long enough"}"#, 400, "invalid_email"),
        (#"{"email":"ok@example.com","password":"short"}"#, 400, "weak_password"),
        (#"{"email":"ok@example.com","password":"\#(String(repeating: "x", count: 257))"}"#, 400, "weak_password"),
        (#"{"email":"ok@example.com"}"#, 400, "bad_request"),
        (#"{"email":"ok@example.com","password":12345678}"#, 400, "bad_request"),
        (#"not json"#, 400, "bad_request"),
    ])
    func badSignUpsGetTypedErrors(body: String, status: Int, code: String) async throws {
        try await TestApplication.run(on: .sqlite) { application, client in
            let response = try await client.call(.post, "/v1/auth/signup", json: body)
            #expect(response.status.code == status, "\(response.text)")
            #expect(response.errorCode == code, "\(response.text)")
            #expect(try await application.database.sql.count("kindred_users") == 0)
        }
    }

    @Test func exEraserOffersNoPasswordSignUp() async throws {
        try await TestApplication.run(on: .sqlite) { _, client in
            let response = try await client.call(
                .post, "/v1/auth/signup", app: "exeraser", json: #"{"email":"x@example.com","password":"long enough"}"#
            )
            #expect(response.status == .forbidden)
            #expect(response.errorCode == "provider_disabled")
            let login = try await client.logIn("x@example.com", app: "exeraser")
            #expect(login.errorCode == "provider_disabled")
            // Anonymous accounts are fine: they hold no personal data.
            _ = try await client.anonymous(app: "exeraser")
        }
    }
}
