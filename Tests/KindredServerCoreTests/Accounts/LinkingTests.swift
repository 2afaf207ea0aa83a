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

/// Adding credentials to an account: anonymous → permanent keeps the id and the data.
@Suite struct LinkingTests {
    @Test(arguments: Backend.all)
    func anAnonymousAccountAddsAPasswordAndKeepsItsId(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let anonymous = try await client.anonymous()
            _ = try await client.call(.patch, "/v1/me", token: anonymous.accessToken, json: #"{"displayName":"Kept"}"#)
            let link = try await client.call(
                .post, "/v1/me/credentials/password", token: anonymous.accessToken,
                json: #"{"email":"Upgraded@Example.com","password":"now permanent"}"#
            )
            #expect(link.status == .ok, "\(link.text)")
            let user = try link.decode(UserBody.self)
            #expect(user.id == anonymous.user.id)
            #expect(user.isAnonymous == false)
            #expect(user.providers == ["password"])
            #expect(user.email == "upgraded@example.com")
            #expect(user.displayName == "Kept")

            let login = try await client.logIn("upgraded@example.com", password: "now permanent")
            #expect(try login.decode(SessionBody.self).user.id == anonymous.user.id)
            // The anonymous session keeps working after the upgrade.
            #expect(try await client.call(.get, "/v1/me", token: anonymous.accessToken).decode(UserBody.self).isAnonymous == false)

            let twice = try await client.call(
                .post, "/v1/me/credentials/password", token: anonymous.accessToken,
                json: #"{"email":"other@example.com","password":"second password"}"#
            )
            #expect(twice.status == .conflict)
            #expect(twice.errorCode == "already_linked")
        }
    }

    @Test(arguments: Backend.all)
    func aCredentialOfAnotherAccountIsInUse(backend: Backend) async throws {
        try await TestApplication.run(on: backend, identity: FakeIdentityVerifier()) { _, client in
            let owner = try await client.signUp("taken@example.com")
            let anonymous = try await client.anonymous()
            let link = try await client.call(
                .post, "/v1/me/credentials/password", token: anonymous.accessToken,
                json: #"{"email":"TAKEN@example.com","password":"whatever it is"}"#
            )
            #expect(link.status == .conflict)
            #expect(link.errorCode == "credential_in_use")
            #expect(try await client.call(.get, "/v1/me", token: anonymous.accessToken).decode(UserBody.self).isAnonymous)

            // The same for Apple: the subject already signs in to `owner`.
            _ = try await client.call(.post, "/v1/me/credentials/apple", token: owner.accessToken, json: #"{"idToken":"apple|sub-1|"}"#)
            let apple = try await client.call(.post, "/v1/me/credentials/apple", token: anonymous.accessToken, json: #"{"idToken":"apple|sub-1|"}"#)
            #expect(apple.status == .conflict)
            #expect(apple.errorCode == "credential_in_use")
            // Signing in with it reaches the owner, which is what the client offers instead.
            let signIn = try await client.call(.post, "/v1/auth/apple", json: #"{"idToken":"apple|sub-1|"}"#)
            #expect(try signIn.decode(SessionBody.self).user.id == owner.user.id)
        }
    }

    @Test func linkingAppleAndGoogleAddsProviders() async throws {
        try await TestApplication.run(on: .sqlite, identity: FakeIdentityVerifier()) { _, client in
            let anonymous = try await client.anonymous()
            let apple = try await client.call(
                .post, "/v1/me/credentials/apple", token: anonymous.accessToken, json: #"{"idToken":"apple|a-1|a@example.com"}"#
            )
            #expect(try apple.decode(UserBody.self).providers == ["apple"])
            let google = try await client.call(
                .post, "/v1/me/credentials/google", token: anonymous.accessToken, json: #"{"idToken":"google|g-1|g@example.com"}"#
            )
            let user = try google.decode(UserBody.self)
            #expect(Set(user.providers) == ["apple", "google"])
            #expect(user.id == anonymous.user.id)
            // Linking the same credential again is a no-op; a second Apple id is not.
            let same = try await client.call(.post, "/v1/me/credentials/apple", token: anonymous.accessToken, json: #"{"idToken":"apple|a-1|"}"#)
            #expect(same.status == .ok)
            let second = try await client.call(.post, "/v1/me/credentials/apple", token: anonymous.accessToken, json: #"{"idToken":"apple|a-2|"}"#)
            #expect(second.errorCode == "already_linked")
            let bad = try await client.call(.post, "/v1/me/credentials/google", token: anonymous.accessToken, json: #"{"idToken":"nope"}"#)
            #expect(bad.errorCode == "invalid_identity_token")
        }
    }
}
