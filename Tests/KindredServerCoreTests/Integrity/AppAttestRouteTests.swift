import Foundation
import HummingbirdTesting
@testable import KindredServerCore
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// `POST /v1/integrity/app-attest/keys` and `/assertions` with chains and keys made in the test.
@Suite struct AppAttestRouteTests {
    @Test(arguments: Backend.all)
    func registerThenAssertWithARisingCounter(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device) { database, _, client in
            let session = try await client.anonymous()
            let registered = try await client.registerKey(device, token: session.accessToken)
            #expect(registered.status == .created, "\(registered.text)")
            #expect(try registered.decode(VerdictBody.self) == VerdictBody(
                device: device.keyID, platform: "app_attest", verdict: "passed", reason: nil, recordedAt: "2026-09-21T14:13:20Z"))
            let key = try #require(try await database.sql.select().columns("user_id", "app", "environment", "counter", "public_key")
                .from("kindred_integrity_keys").where("key_id", .equal, device.keyID).first())
            #expect(try key.decode(column: "user_id", as: String.self) == session.user.id)
            #expect(try key.decode(column: "app", as: String.self) == "closer")
            #expect(try key.decode(column: "environment", as: String.self) == "production")
            #expect(try key.decode(column: "counter", as: Int64.self) == 0)
            #expect(try key.decode(column: "public_key", as: String.self) == device.deviceKey.publicKey.x963Representation.base64EncodedString())

            let again = try await client.registerKey(device, token: session.accessToken)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "integrity_key_in_use")

            let first = try await client.assert(device, counter: 1, token: session.accessToken)
            #expect(first.status == .ok, "\(first.text)")
            #expect(try first.decode(VerdictBody.self).verdict == "passed")
            let third = try await client.assert(device, counter: 3, token: session.accessToken)
            #expect(third.status == .ok, "\(third.text)")
            let counter = try await database.sql.select().column("counter").from("kindred_integrity_keys").first()
            #expect(try counter?.decode(column: "counter", as: Int64.self) == 3)

            // A counter not above the stored one is a replay, refused and recorded as a failure.
            for replayed: UInt32 in [3, 2] {
                let response = try await client.assert(device, counter: replayed, token: session.accessToken)
                #expect(response.status == .conflict)
                #expect(response.errorCode == "assertion_replayed")
                #expect(response.text.contains("counter \(replayed) is not greater than 3"))
            }
            let verdicts = try await IntegrityStore(database: database, clock: SystemClock()).verdicts(userID: session.user.id, limit: 10)
            // Recorded in the same millisecond of the test clock: compared as a set.
            #expect(verdicts.map(\.verdict).sorted() == ["failed", "failed", "passed", "passed", "passed"])
            #expect(Set(verdicts.compactMap(\.reason)) == ["counter 3 is not greater than 3", "counter 2 is not greater than 3"])
        }
    }

    @Test(arguments: Backend.all)
    func aWrongNonceOrSignatureIsRefusedAndRecorded(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device) { database, _, client in
            let session = try await client.anonymous()
            // The attestation binds other client data than the challenge the server issued.
            let challenge = try await client.integrityChallenge(token: session.accessToken)
            let forged = try device.attestation(challenge: challenge, clientData: "some-other-challenge")
            let refused = try await client.call(
                .post, "/v1/integrity/app-attest/keys", token: session.accessToken,
                json: #"{"keyId":"\#(device.keyID)","attestation":"\#(forged)","challenge":"\#(challenge)"}"#
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text == envelope("integrity_check_failed", "nonce does not match"))
            let keys = try await database.sql.select().column("key_id").from("kindred_integrity_keys").all()
            #expect(keys.isEmpty)

            #expect(try await client.registerKey(device, token: session.accessToken).status == .created)
            // An assertion over another challenge, or signed by another key, does not verify.
            let next = try await client.integrityChallenge(token: session.accessToken)
            let otherData = try await client.call(
                .post, "/v1/integrity/app-attest/assertions", token: session.accessToken,
                json: #"{"keyId":"\#(device.keyID)","assertion":"\#(try device.assertion(counter: 1, challenge: "elsewhere"))","challenge":"\#(next)"}"#
            )
            #expect(otherData.text == envelope("integrity_check_failed", "signature does not verify"))
            let impostor = try await client.call(
                .post, "/v1/integrity/app-attest/assertions", token: session.accessToken,
                json: #"{"keyId":"\#(device.keyID)","assertion":"\#(try device.assertion(counter: 1, challenge: next, signer: .init()))","challenge":"\#(try await client.integrityChallenge(token: session.accessToken))"}"#
            )
            #expect(impostor.errorCode == "integrity_check_failed")
            let malformed = try await client.call(
                .post, "/v1/integrity/app-attest/assertions", token: session.accessToken,
                json: #"{"keyId":"not base64!","assertion":"AA==","challenge":"\#(next)"}"#
            )
            #expect(malformed.text == envelope("bad_request", "keyId must be base64"))
            let verdicts = try await IntegrityStore(database: database, clock: SystemClock()).verdicts(userID: session.user.id, limit: 10)
            #expect(verdicts.map(\.verdict).sorted() == ["failed", "failed", "failed", "passed"])
        }
    }

    @Test(arguments: Backend.all)
    func anAppWithoutAppAttestSettingsAnswers501(backend: Backend) async throws {
        let device = try IntegrityTestDevice()
        try await IntegrityTestApplication.run(on: backend, device: device) { _, _, client in
            let session = try await client.anonymous(app: "soulmate")
            let challenge = try await client.integrityChallenge(token: session.accessToken, app: "soulmate")
            let response = try await client.call(
                .post, "/v1/integrity/app-attest/keys", app: "soulmate", token: session.accessToken,
                json: #"{"keyId":"\#(device.keyID)","attestation":"AA==","challenge":"\#(challenge)"}"#
            )
            #expect(response.status == .notImplemented)
            #expect(response.text == envelope("integrity_not_configured", "App Attest is not configured for soulmate"))
        }
    }
}
