import Foundation
import HummingbirdTesting
@testable import KindredServerCore
import KindredServerTestSupport
import KindredTestSupport
import Testing

/// `POST /v1/integrity/challenge`: single use, expiry, owner and app.
@Suite struct IntegrityChallengeTests {
    @Test(arguments: Backend.all)
    func aChallengeIsUsedOnceAndExpires(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device) { _, clock, client in
            let session = try await client.anonymous()
            let issued = try await client.call(.post, "/v1/integrity/challenge", token: session.accessToken)
            #expect(issued.status == .created)
            let body = try issued.decode(ChallengeBody.self)
            #expect(body.challenge.utf8.count == 43)
            #expect(body.expiresAt == "2026-09-21T14:18:20Z")  // now (14:13:20) + 5 minutes
            let unauthenticated = try await client.call(.post, "/v1/integrity/challenge")
            #expect(unauthenticated.errorCode == "missing_token")

            // Used once by a registration; the same challenge again is a replay.
            let attestation = try device.attestation(challenge: body.challenge)
            let json = #"{"keyId":"\#(device.keyID)","attestation":"\#(attestation)","challenge":"\#(body.challenge)"}"#
            let first = try await client.call(.post, "/v1/integrity/app-attest/keys", token: session.accessToken, json: json)
            #expect(first.status == .created, "\(first.text)")
            let replay = try await client.call(.post, "/v1/integrity/app-attest/keys", token: session.accessToken, json: json)
            #expect(replay.status == .conflict)
            #expect(replay.errorCode == "challenge_used")

            // Past its five minutes a challenge is refused as expired; an unknown one as invalid.
            let late = try await client.integrityChallenge(token: session.accessToken)
            clock.advance(by: .seconds(301))
            let expired = try await client.call(
                .post, "/v1/integrity/app-attest/assertions", token: session.accessToken,
                json: #"{"keyId":"\#(device.keyID)","assertion":"\#(try device.assertion(counter: 1, challenge: late))","challenge":"\#(late)"}"#
            )
            #expect(expired.status == .gone)
            #expect(expired.errorCode == "challenge_expired")
            let unknown = try await client.call(
                .post, "/v1/integrity/app-attest/assertions", token: session.accessToken,
                json: #"{"keyId":"\#(device.keyID)","assertion":"\#(try device.assertion(counter: 1, challenge: "nope"))","challenge":"not-issued-by-the-server"}"#
            )
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorCode == "invalid_challenge")
        }
    }

    @Test(arguments: Backend.all)
    func anotherUsersChallengeIsInvalidAndStaysUnused(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device) { _, _, client in
            let owner = try await client.anonymous()
            let thief = try await client.anonymous()
            let challenge = try await client.integrityChallenge(token: owner.accessToken)
            let json = #"{"keyId":"\#(device.keyID)","attestation":"\#(try device.attestation(challenge: challenge))","challenge":"\#(challenge)"}"#
            let stolen = try await client.call(.post, "/v1/integrity/app-attest/keys", token: thief.accessToken, json: json)
            #expect(stolen.errorCode == "invalid_challenge")
            let own = try await client.call(.post, "/v1/integrity/app-attest/keys", token: owner.accessToken, json: json)
            #expect(own.status == .created, "\(own.text)")
        }
    }
}
