import Foundation
import HummingbirdTesting
@testable import KindredServerCore
import KindredServerTestSupport
import KindredTestSupport
import Testing

/// `POST /v1/integrity/play-integrity` with keys made in the test.
@Suite struct PlayIntegrityRouteTests {
    @Test(arguments: Backend.all)
    func aTokenBoundToTheChallengePassesAndAnotherPackageFails(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        let play = IntegrityTestPlay()
        try await IntegrityTestApplication.run(on: backend, device: device, play: play) { database, clock, client in
            let session = try await client.anonymous()
            func submit(_ token: (String) throws -> String, deviceID: String = "pixel-install-0001") async throws -> TestResponse {
                let challenge = try await client.integrityChallenge(token: session.accessToken)
                return try await client.call(
                    .post, "/v1/integrity/play-integrity", token: session.accessToken,
                    json: #"{"deviceId":"\#(deviceID)","token":"\#(try token(challenge))","challenge":"\#(challenge)"}"#
                )
            }
            let passed = try await submit { try play.token(nonce: $0, now: clock.now()) }
            #expect(passed.status == .ok, "\(passed.text)")
            #expect(try passed.decode(VerdictBody.self) == VerdictBody(
                device: "pixel-install-0001", platform: "play_integrity", verdict: "passed", reason: nil, recordedAt: "2026-09-21T14:13:20Z"))

            clock.advance(by: .seconds(1))
            let otherPackage = try await submit { try play.token(nonce: $0, package: "com.someone.else", now: clock.now()) }
            #expect(otherPackage.status == .unprocessableContent)
            #expect(otherPackage.text == envelope("integrity_check_failed", "package com.someone.else is not dev.kindred.closer"))
            clock.advance(by: .seconds(1))
            let wrongNonce = try await submit { _ in try play.token(nonce: "another-nonce-value", now: clock.now()) }
            #expect(wrongNonce.text == envelope("integrity_check_failed", "nonce does not match"))
            let badDevice = try await submit({ try play.token(nonce: $0, now: clock.now()) }, deviceID: "short")
            #expect(badDevice.errorCode == "bad_request")

            let store = IntegrityStore(database: database, clock: clock)
            #expect(try await store.currentVerdict(userID: session.user.id, app: .closer, device: "pixel-install-0001", lifetime: .seconds(60))
                == .failed(reason: "nonce does not match"))
            let records = try await store.verdicts(userID: session.user.id, limit: 10)
            #expect(records.map(\.platform) == ["play_integrity", "play_integrity", "play_integrity"])
        }
    }
}
