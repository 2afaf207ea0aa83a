@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredStore
import Logging
import Synchronization
import Testing


extension IdentityTokenVerifierTests {
    /// Key sets fetched from a live local JWKS endpoint: caching, `max-age`, refetching for an
    /// unknown `kid` at most once a minute, and falling back to the cached set.
    @Suite struct KeySetOverHTTP {
        let first: TestIdentityIssuer
        let second: TestIdentityIssuer
        let clock = TestClock()

        init() throws {
            first = try TestIdentityIssuer.shared(provider: .apple, kid: "key-1")
            second = try TestIdentityIssuer.shared(provider: .apple, kid: "key-2")
        }

        /// Runs `body` with a live endpoint answering `answer` and a verifier that fetches from it.
        func withEndpoint(
            _ answer: JWKSEndpoint.Answer,
            _ body: @Sendable (JWKSEndpoint, IdentityTokenVerifier) async throws -> Void
        ) async throws {
            let endpoint = JWKSEndpoint(answer)
            let app = Application(
                router: endpoint.router,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                logger: .quietForIdentityTests)
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let url = try #require(URL(string: "http://127.0.0.1:\(port)/auth/keys"))
                let verifier = IdentityTokenVerifier(
                    provider: .apple, jwks: .url(url), clock: clock, logger: .quietForIdentityTests,
                    httpClient: .shared)
                try await body(endpoint, verifier)
            }
        }

        /// Verifies a token that `issuer` issues now, with its `kid` as subject, and returns the subject.
        func subject(of issuer: TestIdentityIssuer, _ verifier: IdentityTokenVerifier) async throws -> String {
            let token = try issuer.token(subject: issuer.kid, issuedAt: clock.now())
            return try await verifier.verify(token, audiences: [issuer.defaultAudience]).subject
        }

        @Test func cachesTheKeySetForItsMaxAge() async throws {
            let answer = JWKSEndpoint.Answer(body: first.jwksJSON, cacheControl: "public, max-age=300, must-revalidate")
            try await withEndpoint(answer) { (endpoint, verifier) async throws in
                #expect(try await subject(of: first, verifier) == "key-1")
                #expect(try await subject(of: first, verifier) == "key-1")
                clock.advance(by: .seconds(299))
                #expect(try await subject(of: first, verifier) == "key-1")
                #expect(endpoint.requests == 1)
                clock.advance(by: .seconds(1))
                #expect(try await subject(of: first, verifier) == "key-1")
                #expect(endpoint.requests == 2)
            }
        }

        @Test func cachesForAnHourWithoutMaxAgeAndForADayAtMost() async throws {
            try await withEndpoint(.init(body: first.jwksJSON, cacheControl: nil)) { (endpoint, verifier) async throws in
                _ = try await subject(of: first, verifier)
                clock.advance(by: .seconds(3599))
                _ = try await subject(of: first, verifier)
                #expect(endpoint.requests == 1)
                clock.advance(by: .seconds(1))
                _ = try await subject(of: first, verifier)
                #expect(endpoint.requests == 2)

                endpoint.answer.cacheControl = "max-age=31536000"
                clock.advance(by: .seconds(3600))
                _ = try await subject(of: first, verifier)
                #expect(endpoint.requests == 3)
                clock.advance(by: .seconds(86_399))
                _ = try await subject(of: first, verifier)
                #expect(endpoint.requests == 3)
                clock.advance(by: .seconds(1))
                _ = try await subject(of: first, verifier)
                #expect(endpoint.requests == 4)
            }
        }

        @Test func refetchesForAnUnknownKidAtMostOnceAMinute() async throws {
            try await withEndpoint(.init(body: first.jwksJSON)) { (endpoint, verifier) async throws in
                #expect(try await subject(of: first, verifier) == "key-1")
                // The provider rotates: key-2 appears, but the last fetch was under a minute ago.
                endpoint.answer.body = TestIdentityIssuer.jwksJSON(of: [first, second])
                clock.advance(by: .seconds(59))
                await #expect(throws: IdentityTokenError.unknownKey) { try await subject(of: second, verifier) }
                #expect(endpoint.requests == 1)
                clock.advance(by: .seconds(1))
                #expect(try await subject(of: second, verifier) == "key-2")
                #expect(endpoint.requests == 2)
                // A kid nobody publishes: no new fetch until a minute has passed, then one.
                let stranger = try TestIdentityIssuer.shared(provider: .apple, kid: "key-3")
                for _ in 0..<3 {
                    await #expect(throws: IdentityTokenError.unknownKey) { try await subject(of: stranger, verifier) }
                }
                #expect(endpoint.requests == 2)
                clock.advance(by: .seconds(60))
                await #expect(throws: IdentityTokenError.unknownKey) { try await subject(of: stranger, verifier) }
                #expect(endpoint.requests == 3)
                #expect(try await subject(of: first, verifier) == "key-1")
            }
        }

        @Test func keepsUsingTheCachedSetWhenTheEndpointFails() async throws {
            let answer = JWKSEndpoint.Answer(body: first.jwksJSON, cacheControl: "max-age=120")
            try await withEndpoint(answer) { (endpoint, verifier) async throws in
                _ = try await subject(of: first, verifier)
                endpoint.answer.status = .internalServerError
                clock.advance(by: .seconds(120))
                #expect(try await subject(of: first, verifier) == "key-1")
                #expect(endpoint.requests == 2)
                clock.advance(by: .seconds(59))
                #expect(try await subject(of: first, verifier) == "key-1")
                #expect(endpoint.requests == 2)
                endpoint.answer.body = "<html>maintenance</html>"
                endpoint.answer.status = .ok
                clock.advance(by: .seconds(1))
                #expect(try await subject(of: first, verifier) == "key-1")
                #expect(endpoint.requests == 3)
                endpoint.answer.body = TestIdentityIssuer.jwksJSON(of: [second])
                clock.advance(by: .seconds(60))
                #expect(try await subject(of: second, verifier) == "key-2")
                #expect(endpoint.requests == 4)
                await #expect(throws: IdentityTokenError.unknownKey) { try await subject(of: first, verifier) }
            }
        }

        @Test func refusesTokensWhileNoKeySetWasEverLoaded() async throws {
            try await withEndpoint(.init(status: .serviceUnavailable, body: "")) { (endpoint, verifier) async throws in
                guard case .url(let url) = verifier.source else {
                    Issue.record("the verifier does not fetch from a URL")
                    return
                }
                for _ in 0..<2 {
                    await #expect(throws: IdentityTokenError.jwksUnavailable("GET \(url) answered 503")) {
                        try await subject(of: first, verifier)
                    }
                }
                endpoint.answer = .init(body: "{\"keys\": 1}")
                await #expect(throws: IdentityTokenError.invalidJWKS(#"not a JSON object with a "keys" array"#)) {
                    try await subject(of: first, verifier)
                }
                endpoint.answer = .init(body: first.jwksJSON)
                #expect(try await subject(of: first, verifier) == "key-1")
                #expect(endpoint.requests == 4)
            }
        }

        @Test func concurrentVerificationsShareOneFetch() async throws {
            try await withEndpoint(.init(body: first.jwksJSON)) { (endpoint, verifier) async throws in
                try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<8 { group.addTask { try await subject(of: first, verifier) } }
                    for try await subject in group { #expect(subject == "key-1") }
                }
                #expect(endpoint.requests == 1)
            }
        }

        @Test func refusesTokensWithoutAnHTTPClient() async throws {
            let url = try #require(URL(string: "http://127.0.0.1:9/auth/keys"))
            let verifier = IdentityTokenVerifier(provider: .apple, jwks: .url(url), clock: clock, logger: .quietForIdentityTests)
            await #expect(throws: IdentityTokenError.jwksUnavailable("no HTTP client to fetch http://127.0.0.1:9/auth/keys")) {
                try await subject(of: first, verifier)
            }
        }

        @Test(arguments: [
            ([], 3600), (["max-age=300"], 300), (["public, max-age=21600, must-revalidate, no-transform"], 21600),
            (["max-age=0"], 60), (["no-store"], 60), (["max-age=300", "no-cache"], 60), (["MAX-AGE = \"90\""], 90),
            (["max-age=99999999999999999999999"], 86400), (["max-age=-5"], 3600), (["max-age=abc"], 3600),
        ] as [([String], TimeInterval)])
        func cacheLifetimeFromCacheControl(values: [String], seconds: TimeInterval) {
            #expect(CacheControl.lifetime(of: values, default: 3600, minimum: 60, maximum: 86400) == seconds)
        }
    }
}

/// A JWKS endpoint at `GET /auth/keys` whose answer a test changes as it goes; counts the GETs.
final class JWKSEndpoint: Sendable {
    /// What the endpoint answers.
    struct Answer: Sendable {
        var status: HTTPResponse.Status = .ok
        var body: String
        /// The `Cache-Control` header, none when nil.
        var cacheControl: String? = nil
    }

    private let state: Mutex<(answer: Answer, requests: Int)>

    init(_ answer: Answer) { state = Mutex((answer, 0)) }

    /// The current answer.
    var answer: Answer {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    /// How many GETs the endpoint has answered.
    var requests: Int { state.withLock { $0.requests } }

    /// The router serving the endpoint.
    var router: Router<BasicRequestContext> {
        let router = Router()
        router.get("/auth/keys") { _, _ -> Response in
            let answer = self.state.withLock { state in
                state.requests += 1
                return state.answer
            }
            var headers: HTTPFields = [.contentType: "application/json"]
            if let cacheControl = answer.cacheControl { headers[.cacheControl] = cacheControl }
            return Response(status: answer.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        return router
    }
}
