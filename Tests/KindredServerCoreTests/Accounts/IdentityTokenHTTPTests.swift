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
            // The same token again is refused (one sign-in per token); a new token finds the account.
            let replayed = try await post("/v1/auth/apple", try apple.token(subject: "000111.apple"))
            #expect(replayed.status == .unauthorized)
            #expect(replayed.errorCode == "identity_token_reused")
            let again = try await post(
                "/v1/auth/apple", try apple.token(subject: "000111.apple", issuedAt: TestIdentityIssuer.defaultIssuedAt.addingTimeInterval(1)))
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

    @Test(arguments: Backend.all)
    func aNonceBindsTheTokenToTheRequestAndAppsMayRequireOne(backend: Backend) async throws {
        let (defaults, apple, _, clock) = try Self.setUp()
        var closer = try #require(defaults.apps[.closer])
        closer.requiresIdentityNonce = true
        let apps = AppRegistry([closer, try #require(defaults.apps[.exeraser])])
        let verifier = JWKSIdentityVerifier(apps: apps, clock: clock)
        try await TestApplication.run(on: backend, apps: apps, identity: verifier, clock: clock) { application, client in
            func post(_ token: String, nonce: String?) async throws -> TestResponse {
                let field = nonce.map { #","nonce":"\#($0)""# } ?? ""
                return try await client.call(.post, "/v1/auth/apple", json: #"{"idToken":"\#(token)"\#(field)}"#)
            }
            let nonce = "n-0123456789abcdef"
            func token(_ claim: String?, second: Int) throws -> String {
                try apple.token(
                    subject: "000222.apple", issuedAt: TestIdentityIssuer.defaultIssuedAt.addingTimeInterval(Double(second)),
                    extraClaims: claim.map { ["nonce": .string($0)] } ?? [:])
            }
            let hashed = IdentityTokenUse.hash(nonce)
            // The app requires a nonce: a token without one, or a request without one, is refused.
            let missing = try await post(try token(nil, second: 1), nonce: nil)
            #expect(missing.status == .badRequest && missing.errorCode == "nonce_required", "\(missing.text)")
            let captured = try await post(try token(hashed, second: 2), nonce: nil)
            #expect(captured.status == .unauthorized && captured.errorCode == "invalid_identity_token")
            let wrong = try await post(try token(hashed, second: 3), nonce: "n-not-the-right-one")
            #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_identity_token")
            let raw = try await post(try token(nonce, second: 4), nonce: nonce)  // the claim must be the hash
            #expect(raw.status == .unauthorized)
            let short = try await post(try token(hashed, second: 5), nonce: "short")
            #expect(short.status == .badRequest && short.errorCode == "invalid_nonce")
            // The right nonce signs in; the same token and nonce again are a replay.
            let good = try token(hashed, second: 6)
            let ok = try await post(good, nonce: nonce)
            #expect(ok.status == .ok, "\(ok.text)")
            let replay = try await post(good, nonce: nonce)
            #expect(replay.status == .unauthorized && replay.errorCode == "identity_token_reused")
            // The use is kept until the token expires, then purged by the housekeeping job.
            let kept = try await application.database.sql.select().column("token_hash").from("kindred_identity_token_uses").all()
            #expect(kept.count == 1)
            let purged = try await IdentityTokenUse.purgeExpired(application.database, now: clock.now().addingTimeInterval(86_400), limit: 10)
            #expect(purged == 1)
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
