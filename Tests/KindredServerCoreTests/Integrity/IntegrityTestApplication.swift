import DeviceIntegrity
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import KindredServerCore
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import Logging

/// The server's router with integrity settings for Closer (App Attest and Play Integrity trusting
/// the test's own root and keys) and `policy`, on a fresh database of `backend`.
enum IntegrityTestApplication {
    static let deviceKeyHeader = HTTPField.Name("Kindred-Device-Key")!

    static func run(
        on backend: Backend, device: IntegrityTestDevice, play: IntegrityTestPlay = IntegrityTestPlay(),
        policy: IntegrityPolicy = IntegrityPolicy(), limitPerMinute: Int = 10,
        _ body: @escaping @Sendable (Database, TestClock, any TestClientProtocol) async throws -> Void
    ) async throws {
        var settings = IntegritySettings()
        settings.apps[.closer] = AppIntegritySettings(appAttest: try device.configuration(), playIntegrity: try play.configuration())
        settings.policy = policy
        settings.limitedRequestsPerMinute = limitPerMinute
        let clock = TestClock(start: IntegrityTestDevice.now)
        try await TestDatabases.with(backend) { database in
            let parts = try await TestApplication.serverParts(on: database, clock: clock) { $0.integrity = settings }
            var quiet = Logger(label: "kindred.test")
            quiet.logLevel = .warning
            let app = Application(router: parts.router, logger: quiet)
            try await app.test(.router) { client in
                try await body(database, clock, client)
            }
        }
    }
}

extension TestClientProtocol {
    /// `POST /v1/integrity/challenge` for `token`'s account; the challenge.
    func integrityChallenge(token: String, app: String = "closer") async throws -> String {
        let response = try await call(.post, "/v1/integrity/challenge", app: app, token: token)
        guard response.status == .created else { throw IntegrityTestFailure("challenge: \(response.status) \(response.text)") }
        return try response.decode(ChallengeBody.self).challenge
    }

    /// Registers `device`'s key for `token`'s account with a fresh challenge.
    func registerKey(_ device: IntegrityTestDevice, token: String) async throws -> TestResponse {
        let challenge = try await integrityChallenge(token: token)
        return try await call(
            .post, "/v1/integrity/app-attest/keys", token: token,
            json: #"{"keyId":"\#(device.keyID)","attestation":"\#(try device.attestation(challenge: challenge))","challenge":"\#(challenge)"}"#
        )
    }

    /// Sends an assertion of `device` with `counter` over a fresh challenge.
    func assert(_ device: IntegrityTestDevice, counter: UInt32, token: String) async throws -> TestResponse {
        let challenge = try await integrityChallenge(token: token)
        return try await call(
            .post, "/v1/integrity/app-attest/assertions", token: token,
            json: #"{"keyId":"\#(device.keyID)","assertion":"\#(try device.assertion(counter: counter, challenge: challenge))","challenge":"\#(challenge)"}"#
        )
    }
}

/// A challenge as the server answers it.
struct ChallengeBody: Decodable {
    var challenge: String
    var expiresAt: String
}

/// A recorded verdict as the server answers it.
struct VerdictBody: Decodable, Equatable {
    var device: String
    var platform: String
    var verdict: String
    var reason: String?
    var recordedAt: String
}

/// A step of a test that could not go on.
struct IntegrityTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
