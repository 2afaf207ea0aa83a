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

/// `POST /v1/auth/apple|google`: account creation on first use, then sign-in by subject.
@Suite struct IdentitySignInTests {
    @Test(arguments: Backend.all)
    func firstSignInCreatesTheAccountAndLaterOnesFindIt(backend: Backend) async throws {
        try await TestApplication.run(on: backend, identity: FakeIdentityVerifier()) { _, client in
            let first = try await client.call(
                .post, "/v1/auth/apple",
                json: #"{"idToken":"apple|001234.abcd|relay@privaterelay.appleid.com","firstName":"Tim","lastName":"Apple"}"#
            )
            #expect(first.status == .ok, "\(first.text)")
            let created = try first.decode(SessionBody.self)
            #expect(created.isNewUser)
            #expect(created.user.providers == ["apple"])
            #expect(created.user.email == "relay@privaterelay.appleid.com")
            #expect(created.user.firstName == "Tim")
            #expect(created.user.isAnonymous == false)

            // Apple sends the name only once; later sign-ins find the account by subject.
            let again = try await client.call(.post, "/v1/auth/apple", json: #"{"idToken":"apple|001234.abcd|"}"#)
            let found = try again.decode(SessionBody.self)
            #expect(found.isNewUser == false)
            #expect(found.user.id == created.user.id)

            let google = try await client.call(.post, "/v1/auth/google", json: #"{"idToken":"google|001234.abcd|g@example.com"}"#)
            #expect(try google.decode(SessionBody.self).user.id != created.user.id)
        }
    }

    @Test func exEraserKeepsOnlyTheOpaqueSubject() async throws {
        try await TestApplication.run(on: .sqlite, identity: FakeIdentityVerifier()) { application, client in
            let response = try await client.call(
                .post, "/v1/auth/apple", app: "exeraser",
                json: #"{"idToken":"apple|sub-77|someone@example.com","firstName":"Some","lastName":"One"}"#
            )
            let session = try response.decode(SessionBody.self)
            #expect(session.user.email == nil)
            #expect(session.user.firstName == nil && session.user.lastName == nil)
            let row = try #require(try await application.database.sql.select().column("email").column("subject")
                .from("kindred_credentials").where("user_id", .equal, session.user.id).first())
            #expect(try row.decode(column: "email", as: String?.self) == nil)
            #expect(try row.decode(column: "subject", as: String.self) == "sub-77")
        }
    }

    @Test func refusedTokensAndUnconfiguredProviders() async throws {
        try await TestApplication.run(on: .sqlite, identity: FakeIdentityVerifier()) { _, client in
            let bad = try await client.call(.post, "/v1/auth/apple", json: #"{"idToken":"google|x|"}"#)
            #expect(bad.status == .unauthorized)
            #expect(bad.errorCode == "invalid_identity_token")
            let missing = try await client.call(.post, "/v1/auth/google", json: #"{}"#)
            #expect(missing.errorCode == "bad_request")
        }
        try await TestApplication.run(on: .sqlite) { _, client in
            let unavailable = try await client.call(.post, "/v1/auth/apple", json: #"{"idToken":"apple|x|"}"#)
            #expect(unavailable.status == .serviceUnavailable)
            #expect(unavailable.errorCode == "identity_provider_unavailable")
        }
        var pulse = AppConfiguration.developmentDefault(for: .pulse)
        pulse.authProviders = [.password]
        try await TestApplication.run(on: .sqlite, apps: AppRegistry([pulse]), identity: FakeIdentityVerifier()) { _, client in
            let disabled = try await client.call(.post, "/v1/auth/google", app: "pulse", json: #"{"idToken":"google|x|"}"#)
            #expect(disabled.status == .forbidden)
            #expect(disabled.errorCode == "provider_disabled")
        }
    }
}
