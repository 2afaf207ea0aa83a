@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import AsyncHTTPClient
import Crypto
import _CryptoExtras
import Foundation
import Hummingbird
import HummingbirdTesting
import KindredCrypto
import KindredStore
import NIOConcurrencyHelpers
import Testing

/// `FCMTransport` against a local server speaking Google's OAuth token exchange and FCM HTTP v1.
@Suite struct FCMTransportTests {
    /// What the fake saw.
    final class Log: Sendable {
        let exchanges = NIOLockedValueBox<[String]>([])  // assertions received
        let sends = NIOLockedValueBox<[(authorization: String, body: Data)]>([])
        let attempts = NIOLockedValueBox<[String: Int]>([:])
    }

    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    static func serviceAccount(tokenURI: String) -> Data {
        let object: [String: String] = [
            "type": "service_account", "project_id": "kindred-demo", "client_email": "push@kindred-demo.iam.gserviceaccount.com",
            "private_key": key.pemRepresentation, "token_uri": tokenURI,
        ]
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    /// The fake: `/token` checks the RS256 assertion; `/v1/projects/kindred-demo/messages:send` answers by token.
    static func router(_ log: Log) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/token") { request, _ -> Response in
            let form = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let fields = Dictionary(uniqueKeysWithValues: form.split(separator: "&").map {
                let pair = $0.split(separator: "=", maxSplits: 1).map(String.init)
                return (pair[0], pair.count > 1 ? pair[1] : "")
            })
            let assertion = fields["assertion"] ?? ""
            let parts = assertion.split(separator: ".").map(String.init)
            guard fields["grant_type"] == "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer", parts.count == 3,
                let signature = try? Base64.decode(parts[2], alphabet: .urlSafeNoPadding),
                key.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature),
                                               for: Array("\(parts[0]).\(parts[1])".utf8), padding: .insecurePKCS1v1_5)
            else { return Response(status: .badRequest) }
            let count = log.exchanges.withLockedValue { $0.append(parts[1]); return $0.count }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"access_token":"ya29.token-\#(count)","expires_in":3600,"token_type":"Bearer"}"#))
            )
        }
        router.post("/v1/projects/kindred-demo/messages:send") { request, _ -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 16))
            let authorization = request.headers[.authorization] ?? ""
            log.sends.withLockedValue { $0.append((authorization, body)) }
            let message = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["message"] as? [String: Any]
            let token = message?["token"] as? String ?? ""
            let attempt = log.attempts.withLockedValue { $0[token, default: 0] += 1; return $0[token, default: 1] }
            func json(_ status: HTTPResponse.Status, _ text: String, _ headers: HTTPFields = [:]) -> Response {
                var all = headers
                all[.contentType] = "application/json"
                return Response(status: status, headers: all, body: .init(byteBuffer: ByteBuffer(string: text)))
            }
            switch token {
            case "dead":
                return json(.notFound, #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#)
            case "busy":
                return json(.tooManyRequests, #"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"QUOTA_EXCEEDED"}]}}"#, [.retryAfter: "7"])
            case "revoked-auth" where attempt == 1:
                return json(.unauthorized, #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#)
            case "malformed":
                return json(.badRequest, #"{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#)
            default:
                return json(.ok, #"{"name":"projects/kindred-demo/messages/0:1500415314455276%31bd1c9631bd1c96"}"#)
            }
        }
        return router
    }

    static func withTransport(clock: TestClock, _ body: @escaping @Sendable (FCMTransport, Log) async throws -> Void) async throws {
        let log = Log()
        let app = Application(router: router(log))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var configuration = try FCMConfiguration(serviceAccountJSON: serviceAccount(tokenURI: "http://127.0.0.1:\(port)/token"))
            configuration.apiBaseURL = "http://127.0.0.1:\(port)"
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let transport = FCMTransport(configuration: configuration, client: http, clock: clock, logger: .init(label: "test"))
            do {
                try await body(transport, log)
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    static let message = PushMessage(
        id: "n-1", type: "daily_question", title: "Today's question", body: "What made you smile?",
        data: ["questionId": "q42"], collapseID: "daily", highPriority: false, expiresAt: Date(timeIntervalSince1970: 1_767_229_200)
    )

    static func device(_ token: String) -> PushDevice {
        PushDevice(tokenID: "t-\(token)", token: token, transport: "fcm", apnsEnvironment: nil)
    }

    @Test func theOAuthTokenIsExchangedOnceAndCachedUntilItExpires() async throws {
        let clock = TestClock()
        try await Self.withTransport(clock: clock) { transport, log in
            for _ in 0..<3 {
                #expect(await transport.send(Self.message, to: Self.device("phone")) == .accepted(
                    providerID: "projects/kindred-demo/messages/0:1500415314455276%31bd1c9631bd1c96"
                ))
            }
            #expect(log.exchanges.withLockedValue { $0.count } == 1)
            // The assertion: the service account, the FCM scope, Google's token URI as audience.
            let claimsPart = try #require(log.exchanges.withLockedValue { $0.first })
            let claims = try JSONSerialization.jsonObject(with: Data(try Base64.decode(claimsPart, alphabet: .urlSafeNoPadding))) as? [String: Any]
            #expect(claims?["iss"] as? String == "push@kindred-demo.iam.gserviceaccount.com")
            #expect(claims?["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
            #expect((claims?["aud"] as? String)?.hasSuffix("/token") == true)
            #expect(log.sends.withLockedValue { $0.allSatisfy { $0.authorization == "Bearer ya29.token-1" } })

            // The message as FCM v1 wants it.
            let sent = try #require(log.sends.withLockedValue { $0.first?.body })
            let message = try #require((try JSONSerialization.jsonObject(with: sent) as? [String: Any])?["message"] as? [String: Any])
            #expect(message["token"] as? String == "phone")
            #expect((message["notification"] as? [String: String]) == ["title": "Today's question", "body": "What made you smile?"])
            #expect((message["data"] as? [String: String]) == ["questionId": "q42", "type": "daily_question"])
            let android = message["android"] as? [String: String]
            #expect(android?["collapse_key"] == "daily")
            #expect(android?["priority"] == "NORMAL")
            #expect(android?["ttl"] == "3600s")
            #expect(((message["apns"] as? [String: Any])?["headers"] as? [String: String])?["apns-collapse-id"] == "daily")

            clock.advance(by: .seconds(3541))  // past expires_in − 60 s
            _ = await transport.send(Self.message, to: Self.device("phone"))
            #expect(log.exchanges.withLockedValue { $0.count } == 2)
        }
    }

    @Test func providerAnswersBecomeTypedResults() async throws {
        try await Self.withTransport(clock: TestClock()) { transport, log in
            #expect(await transport.send(Self.message, to: Self.device("dead")) == .invalidToken(reason: "UNREGISTERED"))
            #expect(await transport.send(Self.message, to: Self.device("busy")) == .retry(reason: "FCM 429 QUOTA_EXCEEDED", retryAfter: .seconds(7)))
            #expect(await transport.send(Self.message, to: Self.device("malformed")) == .failed(reason: "FCM 400 INVALID_ARGUMENT"))
            // A refused access token is exchanged again and the send retried once.
            let revoked = await transport.send(Self.message, to: Self.device("revoked-auth"))
            guard case .accepted = revoked else {
                Issue.record("expected acceptance after re-authentication, got \(revoked)")
                return
            }
            #expect(log.exchanges.withLockedValue { $0.count } == 2)
        }
    }
}
