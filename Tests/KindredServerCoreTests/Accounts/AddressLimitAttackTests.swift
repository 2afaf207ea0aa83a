@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Issue 21, items 2 and 10: password sign-ups are limited per client address, and an IPv6
/// client is one client across its /64 for every per-address limit.
@Suite struct AddressLimitAttackTests {
    /// Runs `body` on a socket behind a trusted loopback proxy, so `X-Forwarded-For` names the client.
    static func behindProxy(
        _ auth: AuthConfiguration, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var auth = auth
        let prefix = auth.trustedProxies.ipv6ClientPrefixLength
        auth.trustedProxies = try TrustedProxies(["127.0.0.1", "::1"])
        auth.trustedProxies.ipv6ClientPrefixLength = prefix
        let application = try await TestApplication(auth: auth)
        do {
            try await application.app.test(.live, body)
            await application.database.close()
        } catch {
            await application.database.close()
            throw error
        }
    }

    /// `POST path` for `app` closer as the client `address`.
    static func post(
        _ client: any TestClientProtocol, _ path: String, from address: String, json: String? = nil
    ) async throws -> TestResponse {
        try await client.call(.post, path, json: json, headers: [.xForwardedFor: address])
    }

    @Test func aSignUpFloodFromOneAddressIsRefused() async throws {
        var auth = TestApplication.testAuth
        auth.signUpsPerAddressPerHour = 3
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: .sqlite, auth: auth, clock: clock) { _, client in
            for index in 0..<3 { _ = try await client.signUp("flood\(index)@example.com") }
            let refused = try await client.call(
                .post, "/v1/auth/signup", json: #"{"email":"flood3@example.com","password":"correct horse"}"#
            )
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "rate_limited")
            #expect(refused.headers[.retryAfter] == "3600")
            // A login is not held up by the flood's limit.
            #expect(try await client.logIn("flood0@example.com").status == .ok)
            clock.advance(by: .seconds(3600))
            _ = try await client.signUp("flood3@example.com")
        }
    }

    @Test func theDefaultSignUpLimitIsTwentyPerHour() {
        #expect(AuthConfiguration().signUpsPerAddressPerHour == 20)
        #expect(AuthConfiguration().trustedProxies.ipv6ClientPrefixLength == 64)
    }

    @Test func anIPv6ClientRotatingWithinItsSlash64SharesOneLimit() async throws {
        var auth = TestApplication.testAuth
        auth.anonymousSignUpsPerHour = 2
        try await Self.behindProxy(auth) { client in
            #expect(try await Self.post(client, "/v1/auth/anonymous", from: "2001:db8:7:1::a").status == .created)
            #expect(try await Self.post(client, "/v1/auth/anonymous", from: "2001:db8:7:1:ffff::b").status == .created)
            let rotated = try await Self.post(client, "/v1/auth/anonymous", from: "2001:db8:7:1:1234:5678:9abc:def0")
            #expect(rotated.status == .tooManyRequests)
            // The next /64 is another client.
            #expect(try await Self.post(client, "/v1/auth/anonymous", from: "2001:db8:7:2::a").status == .created)
        }
    }

    @Test func loginFailuresFromOneSlash64ShareTheAddressLimit() async throws {
        try await Self.behindProxy(TestApplication.testAuth) { client in
            let limit = TestApplication.testAuth.loginFailuresPerAddress
            for attempt in 0..<limit {
                let response = try await Self.post(
                    client, "/v1/auth/login", from: "2001:db8:9:9::\(String(attempt + 1, radix: 16))",
                    json: #"{"email":"user\#(attempt)@example.com","password":"guess guess"}"#
                )
                #expect(response.status == .unauthorized)
            }
            let rotated = try await Self.post(
                client, "/v1/auth/login", from: "2001:db8:9:9:abcd::1",
                json: #"{"email":"another@example.com","password":"guess guess"}"#
            )
            #expect(rotated.status == .tooManyRequests)
        }
    }

    @Test func theIPv6PrefixIsConfigurable() async throws {
        var auth = TestApplication.testAuth
        auth.anonymousSignUpsPerHour = 1
        auth.trustedProxies.ipv6ClientPrefixLength = 128
        try await Self.behindProxy(auth) { client in
            var statuses: [HTTPResponse.Status] = []
            for address in ["2001:db8:7:1::a", "2001:db8:7:1::b", "2001:db8:7:1::b"] {
                statuses.append(try await Self.post(client, "/v1/auth/anonymous", from: address).status)
            }
            #expect(statuses == [.created, .created, .tooManyRequests])
        }
    }

    @Test func rateLimitKeysCutIPv6ToItsPrefix() throws {
        var proxies = TrustedProxies()
        #expect(proxies.rateLimitKey(for: "203.0.113.9") == "203.0.113.9")
        #expect(proxies.rateLimitKey(for: "2001:db8:7:1:1234:5678:9abc:def0") == "2001:db8:7:1::/64")
        #expect(proxies.rateLimitKey(for: "2001:db8::1") == "2001:db8::/64")
        #expect(proxies.rateLimitKey(for: "::ffff:198.51.100.4") == "198.51.100.4")
        #expect(proxies.rateLimitKey(for: "unknown") == "unknown")
        proxies.ipv6ClientPrefixLength = 48
        #expect(proxies.rateLimitKey(for: "2001:db8:7:1::a") == "2001:db8:7::/48")
        proxies.ipv6ClientPrefixLength = 56
        #expect(proxies.rateLimitKey(for: "2001:db8:7:1ff::a") == "2001:db8:7:100::/56")
        proxies.ipv6ClientPrefixLength = 128
        #expect(proxies.rateLimitKey(for: "2001:db8::1") == "2001:db8::1")
    }
}
