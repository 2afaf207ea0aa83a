@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// `POST /v1/auth/apple|google` with real RS256 tokens checked by `JWKSIdentityVerifier` against
/// locally generated keys: the whole path from the HTTP body to the account.
@Suite struct IdentityTokenHTTPTests {
    /// Closer with its Apple and Google key sets inline, and a clock at the fixtures' issue time.
    static func setUp() throws -> (AppRegistry, TestIdentityIssuer, TestIdentityIssuer, TestClock) {
        let apple = try TestIdentityIssuer.shared(provider: .apple)
        let google = try TestIdentityIssuer.shared(provider: .google)
        var closer = AppConfiguration.developmentDefault(for: .closer)
        closer.appleJWKS = .json(apple.jwksJSON)
        closer.googleJWKS = .json(google.jwksJSON)
        var exeraser = AppConfiguration.developmentDefault(for: .exeraser)
        exeraser.appleJWKS = .json(apple.jwksJSON)
        let clock = TestClock(start: TestIdentityIssuer.defaultIssuedAt.addingTimeInterval(60))
        return (AppRegistry([closer, exeraser]), apple, google, clock)
    }

    @Test(arguments: Backend.all)
    func realTokensSignInAndBadOnesAreRefused(backend: Backend) async throws {
        let (apps, apple, google, clock) = try Self.setUp()
        let verifier = JWKSIdentityVerifier(apps: apps, clock: clock)
        try await TestApplication.run(on: backend, apps: apps, identity: verifier, clock: clock) { _, client in
            func post(_ path: String, _ token: String, app: String = "closer") async throws -> TestResponse {
                try await client.call(.post, path, app: app, json: #"{"idToken":"\#(token)"}"#)
            }
            let ok = try await post("/v1/auth/apple", try apple.token(subject: "000111.apple"))
            #expect(ok.status == .ok, "\(ok.text)")
            let session = try ok.decode(SessionBody.self)
            #expect(session.user.providers == ["apple"])
            #expect(session.isNewUser)
            let again = try await post("/v1/auth/apple", try apple.token(subject: "000111.apple"))
            #expect(try again.decode(SessionBody.self).user.id == session.user.id)

            let viaGoogle = try await post("/v1/auth/google", try google.token(subject: "1098765", issuer: "accounts.google.com"))
            #expect(viaGoogle.status == .ok, "\(viaGoogle.text)")

            let refusals: [(String, String)] = [
                ("wrong audience", try apple.token(audience: "com.someone.else")),
                ("wrong issuer", try apple.token(issuer: "https://evil.example.com")),
                ("expired", try apple.token(expiresAt: clock.now().addingTimeInterval(-120))),
                ("bad signature", try apple.impostor().token()),
                ("Google's token at the Apple route", try google.token()),
                ("not a JWT", "not-a-token"),
            ]
            for (why, token) in refusals {
                let response = try await post("/v1/auth/apple", token)
                #expect(response.status == .unauthorized, "\(why): \(response.text)")
                #expect(response.errorCode == "invalid_identity_token", "\(why)")
            }
            // Ex-Eraser's audience is its own: Closer's token does not open it.
            let crossApp = try await post("/v1/auth/apple", try apple.token(), app: "exeraser")
            #expect(crossApp.errorCode == "invalid_identity_token")
            let ownAudience = try await post("/v1/auth/apple", try apple.token(audience: "dev.kindred.exeraser"), app: "exeraser")
            #expect(ownAudience.status == .ok, "\(ownAudience.text)")
            #expect(try ownAudience.decode(SessionBody.self).user.email == nil)
        }
    }

    @Test func aKeySetThatCannotBeLoadedIsAServiceProblemNotTheCallers() async throws {
        let apple = try TestIdentityIssuer.shared(provider: .apple)
        var closer = AppConfiguration.developmentDefault(for: .closer)
        closer.appleJWKS = .file("/nonexistent/apple-jwks.json")
        let apps = AppRegistry([closer])
        let clock = TestClock(start: TestIdentityIssuer.defaultIssuedAt.addingTimeInterval(60))
        try await TestApplication.run(
            on: .sqlite, apps: apps, identity: JWKSIdentityVerifier(apps: apps, clock: clock), clock: clock
        ) { _, client in
            let response = try await client.call(.post, "/v1/auth/apple", json: #"{"idToken":"\#(try apple.token())"}"#)
            #expect(response.status == .serviceUnavailable)
            #expect(response.errorCode == "identity_provider_unavailable")
        }
    }
}
