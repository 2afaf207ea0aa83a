@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import AsyncHTTPClient
import Crypto
import Foundation
import KindredCrypto
import KindredStore
import KindredTestSupport
import NIOSSL
import Testing

/// `APNsTransport` against a local HTTP/2-over-TLS server that answers like APNs.
@Suite struct APNsTransportTests {
    static let token = String(repeating: "ab", count: 32)
    static let dead = String(repeating: "de", count: 32)
    static let bad = String(repeating: "ba", count: 32)
    static let busy = String(repeating: "bb", count: 32)
    static let broken = String(repeating: "cc", count: 32)
    static let huge = String(repeating: "ee", count: 32)
    static let stale = String(repeating: "ff", count: 32)

    /// A transport pointed at two fake servers (production and sandbox) that trust their certificate.
    static func withTransport(
        clock: TestClock = TestClock(),
        _ body: (APNsTransport, FakeAPNsServer, FakeAPNsServer, P256.Signing.PrivateKey) async throws -> Void
    ) async throws {
        let folder = try TemporaryDirectory()
        let script: @Sendable (String, Int) -> FakeAPNsServer.Answer = { token, attempt in
            switch token {
            case dead: .init(status: 410, reason: "Unregistered")
            case bad: .init(status: 400, reason: "BadDeviceToken")
            case busy: .init(status: 429, reason: "TooManyRequests", headers: ["retry-after": "30"])
            case broken: .init(status: 503, reason: "ServiceUnavailable")
            case huge: .init(status: 413, reason: "PayloadTooLarge")
            case stale: attempt == 1 ? .init(status: 403, reason: "ExpiredProviderToken") : .init(status: 200)
            default: .init(status: 200)
            }
        }
        let production = try await FakeAPNsServer(folder: folder, respond: script)
        let sandboxFolder = try TemporaryDirectory()
        let sandbox = try await FakeAPNsServer(folder: sandboxFolder, respond: script)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(
            try NIOSSLCertificate.fromPEMBytes(Array(production.certificatePEM.utf8))
                + NIOSSLCertificate.fromPEMBytes(Array(sandbox.certificatePEM.utf8))
        )
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        let key = P256.Signing.PrivateKey()
        var configuration = try APNsConfiguration(
            teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: key.pemRepresentation, topic: "dev.kindred.closer"
        )
        configuration.productionURL = "https://127.0.0.1:\(production.port)"
        configuration.sandboxURL = "https://127.0.0.1:\(sandbox.port)"
        let transport = APNsTransport(configuration: configuration, client: client, clock: clock, logger: .init(label: "test"))
        do {
            try await body(transport, production, sandbox, key)
        } catch {
            try? await client.shutdown()
            await production.stop()
            await sandbox.stop()
            throw error
        }
        try await client.shutdown()
        await production.stop()
        await sandbox.stop()
    }

    static func device(_ token: String, _ environment: String = "production") -> PushDevice {
        PushDevice(tokenID: "t-\(token.prefix(4))", token: token, transport: "apns", apnsEnvironment: environment)
    }

    static let message = PushMessage(
        id: "5f2b8a52-3c1e-4f7d-9a51-1c2d3e4f5a6b", type: "partner_answered", title: "Ayşe answered",
        body: "Answer today's question to see it.", data: ["coupleId": "c1"], collapseID: "daily-2026-03-08",
        highPriority: true, expiresAt: Date(timeIntervalSince1970: 1_767_312_000)
    )

    @Test func anAlertIsSentWithEveryAPNsHeaderOverHTTP2() async throws {
        let clock = TestClock()
        try await Self.withTransport(clock: clock) { transport, production, sandbox, key in
            let result = await transport.send(Self.message, to: Self.device(Self.token))
            #expect(result == .accepted(providerID: Self.message.id.uppercased()))
            let request = try #require(production.requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/3/device/\(Self.token)")
            #expect(request.headers["apns-topic"] == "dev.kindred.closer")
            #expect(request.headers["apns-push-type"] == "alert")
            #expect(request.headers["apns-priority"] == "10")
            #expect(request.headers["apns-expiration"] == "1767312000")
            #expect(request.headers["apns-collapse-id"] == "daily-2026-03-08")
            #expect(request.headers["apns-id"] == Self.message.id.uppercased())
            let payload = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            let aps = payload?["aps"] as? [String: Any]
            #expect((aps?["alert"] as? [String: String])?["title"] == "Ayşe answered")
            #expect(payload?["type"] as? String == "partner_answered")
            #expect(payload?["coupleId"] as? String == "c1")

            // The provider token: ES256 by the .p8 key, kid and iss as configured, iat = now.
            let bearer = try #require(request.headers["authorization"]).replacingOccurrences(of: "bearer ", with: "")
            let parts = bearer.split(separator: ".").map(String.init)
            #expect(parts.count == 3)
            let header = try JSONSerialization.jsonObject(with: Data(try Base64.decode(parts[0], alphabet: .urlSafeNoPadding))) as? [String: String]
            #expect(header == ["alg": "ES256", "kid": "KEY1234567"])
            let claims = try JSONSerialization.jsonObject(with: Data(try Base64.decode(parts[1], alphabet: .urlSafeNoPadding))) as? [String: Any]
            #expect(claims?["iss"] as? String == "TEAM123456")
            #expect(claims?["iat"] as? Int == Int(clock.now().timeIntervalSince1970))
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try Base64.decode(parts[2], alphabet: .urlSafeNoPadding))
            #expect(key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))

            // Sandbox tokens go to the sandbox host.
            _ = await transport.send(Self.message, to: Self.device(Self.token, "sandbox"))
            #expect(sandbox.requests.count == 1)
            #expect(production.requests.count == 1)
        }
    }

    @Test func theProviderTokenIsReusedUntilItIsFiftyMinutesOld() async throws {
        let clock = TestClock()
        try await Self.withTransport(clock: clock) { transport, production, _, _ in
            _ = await transport.send(Self.message, to: Self.device(Self.token))
            clock.advance(by: .seconds(20 * 60))
            _ = await transport.send(Self.message, to: Self.device(Self.token))
            clock.advance(by: .seconds(30 * 60))
            _ = await transport.send(Self.message, to: Self.device(Self.token))
            let bearers = production.requests.compactMap { $0.headers["authorization"] }
            #expect(bearers.count == 3)
            #expect(bearers[0] == bearers[1])  // 20 minutes: reused (Apple refuses faster refreshes)
            #expect(bearers[1] != bearers[2])  // 50 minutes: a new one (Apple refuses tokens over 60)
        }
    }

    @Test func providerAnswersBecomeTypedResults() async throws {
        try await Self.withTransport { transport, production, _, _ in
            #expect(await transport.send(Self.message, to: Self.device(Self.dead)) == .invalidToken(reason: "Unregistered"))
            #expect(await transport.send(Self.message, to: Self.device(Self.bad)) == .invalidToken(reason: "BadDeviceToken"))
            #expect(await transport.send(Self.message, to: Self.device(Self.busy)) == .retry(reason: "APNs 429 TooManyRequests", retryAfter: .seconds(30)))
            #expect(await transport.send(Self.message, to: Self.device(Self.broken)) == .retry(reason: "APNs 503 ServiceUnavailable", retryAfter: nil))
            #expect(await transport.send(Self.message, to: Self.device(Self.huge)) == .failed(reason: "APNs 413 PayloadTooLarge"))
            // An expired provider token is minted again and the push retried once.
            #expect(await transport.send(Self.message, to: Self.device(Self.stale)) == .accepted(providerID: Self.message.id.uppercased()))
            let staleRequests = production.requests.filter { $0.path.hasSuffix(Self.stale) }
            #expect(staleRequests.count == 2)
            #expect(staleRequests[0].headers["authorization"] != staleRequests[1].headers["authorization"])
        }
    }

    @Test func anUnreachableServerIsARetry() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(timeout: .init(connect: .milliseconds(500)))
        )
        var configuration = try APNsConfiguration(
            teamID: "T", keyID: "K", privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation, topic: "dev.kindred.closer"
        )
        configuration.productionURL = "https://127.0.0.1:\(try LoopbackHTTP.freePort())"
        let transport = APNsTransport(configuration: configuration, client: client, clock: TestClock(), logger: .init(label: "test"))
        let result = await transport.send(Self.message, to: Self.device(Self.token))
        guard case .retry = result else {
            Issue.record("expected a retry, got \(result)")
            try await client.shutdown()
            return
        }
        try await client.shutdown()
    }
}
