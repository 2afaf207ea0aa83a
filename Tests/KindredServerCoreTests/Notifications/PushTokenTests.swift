@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import SQLKit
import Testing

/// `POST/GET /v1/me/push-tokens` and `DELETE /v1/me/push-tokens/{token}`.
@Suite struct PushTokenTests {
    static let apns = String(repeating: "0a1b", count: 16)
    static let fcm = "fcm-registration-token:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"

    static func body(_ token: String, transport: String = "apns", environment: String? = "production", device: String = "phone-1") -> String {
        let env = environment.map { #","apnsEnvironment":"\#($0)""# } ?? ""
        return #"{"token":"\#(token)","transport":"\#(transport)"\#(env),"deviceId":"\#(device)"}"#
    }

    struct TokenBody: Decodable, Equatable {
        var token: String
        var transport: String
        var apnsEnvironment: String?
        var deviceId: String
    }

    struct TokenList: Decodable {
        var tokens: [TokenBody]
    }

    @Test(arguments: Backend.all)
    func devicesRegisterReplaceAndUnregisterTokens(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let session = try await client.anonymous()
            let first = try await client.call(.post, "/v1/me/push-tokens", token: session.accessToken, json: Self.body(Self.apns.uppercased()))
            #expect(first.status == .created, "\(first.text)")
            #expect(try first.decode(TokenBody.self) == TokenBody(token: Self.apns, transport: "apns", apnsEnvironment: "production", deviceId: "phone-1"))
            let again = try await client.call(.post, "/v1/me/push-tokens", token: session.accessToken, json: Self.body(Self.apns))
            #expect(again.status == .ok)

            // An iOS app may use FCM: the transport is stated, not guessed from the platform.
            let tablet = try await client.call(
                .post, "/v1/me/push-tokens", token: session.accessToken, json: Self.body(Self.fcm, transport: "fcm", environment: nil, device: "tablet")
            )
            #expect(tablet.status == .created, "\(tablet.text)")
            // The phone's token rotates: the old one is replaced, not kept beside it.
            let rotated = String(repeating: "ff", count: 32)
            _ = try await client.call(.post, "/v1/me/push-tokens", token: session.accessToken, json: Self.body(rotated))
            let list = try await client.call(.get, "/v1/me/push-tokens", token: session.accessToken).decode(TokenList.self)
            #expect(Set(list.tokens.map(\.token)) == [rotated, Self.fcm])

            #expect(try await client.call(.delete, "/v1/me/push-tokens/\(rotated.uppercased())", token: session.accessToken).status == .noContent)
            let missing = try await client.call(.delete, "/v1/me/push-tokens/\(rotated)", token: session.accessToken)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "push_token_not_found")
        }
    }

    /// Issue 21, item 9: a script registering token after token cannot grow an account's fan-out
    /// without bound; the least recently registered tokens are dropped beyond 20.
    @Test(arguments: Backend.all)
    func anAccountKeepsAtMostTwentyTokensDroppingTheOldest(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let session = try await client.anonymous()
            let other = try await client.anonymous()
            let kept = String(repeating: "ab", count: 32)
            #expect(try await client.call(.post, "/v1/me/push-tokens", token: other.accessToken, json: Self.body(kept)).status == .created)
            for index in 0..<25 {
                let token = String(format: "%064x", index + 1)
                application.clock.advance(by: .seconds(1))
                let response = try await client.call(
                    .post, "/v1/me/push-tokens", token: session.accessToken, json: Self.body(token, device: "device-\(index)")
                )
                #expect(response.status == .created, "\(response.text)")
            }
            let list = try await client.call(.get, "/v1/me/push-tokens", token: session.accessToken).decode(TokenList.self)
            #expect(Set(list.tokens.map(\.token)) == Set((6...25).map { String(format: "%064x", $0) }))
            // Another account's tokens are not touched.
            let others = try await client.call(.get, "/v1/me/push-tokens", token: other.accessToken).decode(TokenList.self)
            #expect(others.tokens.map(\.token) == [kept])
        }
    }

    @Test func aTokenMovesToTheAccountThatRegistersItAndOnlyItsHolderDeletesIt() async throws {
        try await TestApplication.run(on: .sqlite) { application, client in
            let alice = try await client.anonymous()
            let bob = try await client.anonymous()
            _ = try await client.call(.post, "/v1/me/push-tokens", token: alice.accessToken, json: Self.body(Self.apns))
            let notAlices = try await client.call(.delete, "/v1/me/push-tokens/\(Self.apns)", token: bob.accessToken)
            #expect(notAlices.errorCode == "push_token_not_found")
            // The phone changes hands: Bob signs in on it and registers the same token.
            _ = try await client.call(.post, "/v1/me/push-tokens", token: bob.accessToken, json: Self.body(Self.apns, device: "phone-9"))
            #expect(try await client.call(.get, "/v1/me/push-tokens", token: alice.accessToken).decode(TokenList.self).tokens.isEmpty)
            #expect(try await client.call(.get, "/v1/me/push-tokens", token: bob.accessToken).decode(TokenList.self).tokens.count == 1)
            #expect(try await application.database.sql.count("kindred_push_tokens") == 1)
        }
    }

    @Test(arguments: [
        (body(String(repeating: "a", count: 63)), "invalid_push_token"),
        (body(String(repeating: "g", count: 64)), "invalid_push_token"),
        (body(String(repeating: "ab", count: 101)), "invalid_push_token"),
        (body(apns, environment: nil), "invalid_push_token"),
        (body(fcm, transport: "fcm", environment: "sandbox"), "invalid_push_token"),
        (body("has space", transport: "fcm", environment: nil), "invalid_push_token"),
        (body(apns, device: ""), "invalid_push_token"),
        (body(apns, transport: "webpush"), "bad_request"),
        (#"{"token":"x"}"#, "bad_request"),
    ])
    func badRegistrationsAreRefused(body: String, code: String) async throws {
        try await TestApplication.run(on: .sqlite) { application, client in
            let session = try await client.anonymous()
            let response = try await client.call(.post, "/v1/me/push-tokens", token: session.accessToken, json: body)
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.errorCode == code, "\(response.text)")
            #expect(try await application.database.sql.count("kindred_push_tokens") == 0)
        }
    }
}
