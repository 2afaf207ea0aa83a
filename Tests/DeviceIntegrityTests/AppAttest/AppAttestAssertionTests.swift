import Crypto
import Foundation
import Testing
@testable import DeviceIntegrity

@Suite struct AppAttestAssertionTests {
    let device: TestAppAttestDevice
    let verifier: AppAttestVerifier
    let key: AppAttestKey
    let request = Array("{\"challenge\":\"c-2\",\"path\":\"/v1/me\"}".utf8)

    init() async throws {
        device = try TestAppAttestDevice()
        verifier = AppAttestVerifier(configuration: try device.configuration())
        let challenge = Array("attest".utf8)
        let object = try device.attestation(authData: device.attestationAuthData(), clientData: challenge)
        key = try await verifier.verifyAttestation(object, keyID: device.keyID, clientData: challenge, now: TestAppAttestDevice.now)
    }

    @Test func acceptsIncreasingCounters() throws {
        let first = try verifier.verifyAssertion(try device.assertion(counter: 1, clientData: request), clientData: request, key: key)
        #expect(first.counter == 1)
        let second = try verifier.verifyAssertion(try device.assertion(counter: 5, clientData: request), clientData: request, key: first)
        #expect(second.counter == 5)
        #expect(second.keyID == key.keyID)
    }

    @Test func refusesACounterThatDoesNotIncrease() throws {
        let stored = try verifier.verifyAssertion(try device.assertion(counter: 3, clientData: request), clientData: request, key: key)
        #expect(throws: DeviceIntegrityError.counterNotIncreasing(stored: 3, received: 3)) {
            try verifier.verifyAssertion(try device.assertion(counter: 3, clientData: request), clientData: request, key: stored)
        }
        #expect(throws: DeviceIntegrityError.counterNotIncreasing(stored: 3, received: 2)) {
            try verifier.verifyAssertion(try device.assertion(counter: 2, clientData: request), clientData: request, key: stored)
        }
    }

    @Test func refusesABadSignature() throws {
        let other = try device.assertion(counter: 1, clientData: request, signer: P256.Signing.PrivateKey())
        #expect(throws: DeviceIntegrityError.invalidSignature) { try verifier.verifyAssertion(other, clientData: request, key: key) }
        // Signed over other client data.
        let signed = try device.assertion(counter: 1, clientData: request)
        #expect(throws: DeviceIntegrityError.invalidSignature) {
            try verifier.verifyAssertion(signed, clientData: request + [0x20], key: key)
        }
        // A signature that is not DER.
        let garbage = TestCBOREncoder.encode(TestCBOREncoder.map([
            "signature": .bytes([1, 2, 3]),
            "authenticatorData": .bytes(TestAppAttestDevice.rpIDHash() + [0, 0, 0, 0, 1]),
        ]))
        #expect(throws: DeviceIntegrityError.invalidSignature) { try verifier.verifyAssertion(garbage, clientData: request, key: key) }
    }

    @Test func refusesAWrongAppID() throws {
        let assertion = try device.assertion(counter: 1, clientData: request, appID: "ABCDE12345.app.kindred.other")
        #expect(throws: DeviceIntegrityError.appIdentifierMismatch) { try verifier.verifyAssertion(assertion, clientData: request, key: key) }
    }

    @Test func refusesTruncatedOrShortInput() throws {
        let assertion = try device.assertion(counter: 1, clientData: request)
        for length in [0, 1, assertion.count / 2, assertion.count - 1] {
            do {
                _ = try verifier.verifyAssertion(Array(assertion.prefix(length)), clientData: request, key: key)
                Issue.record("accepted a truncated assertion")
            } catch {
                guard case .malformedCBOR = error else { Issue.record("got \(error)"); return }
            }
        }
        let shortAuthData = TestCBOREncoder.encode(TestCBOREncoder.map([
            "signature": .bytes([1]), "authenticatorData": .bytes([1, 2, 3]),
        ]))
        #expect(throws: DeviceIntegrityError.invalidSignature) { try verifier.verifyAssertion(shortAuthData, clientData: request, key: key) }
    }

    @Test func parsesAuthenticatorDataStrictly() throws {
        #expect(throws: DeviceIntegrityError.malformedObject("authenticator data has 36 bytes, needs 37")) {
            try AuthenticatorData(bytes: [UInt8](repeating: 0, count: 36))
        }
        let attested = device.attestationAuthData()
        #expect(throws: DeviceIntegrityError.malformedObject("credential id is truncated")) {
            try AuthenticatorData(bytes: Array(attested.prefix(60)))
        }
        let parsed = try AuthenticatorData(bytes: attested)
        #expect(parsed.attestedCredential?.credentialID == device.keyID)
        #expect(parsed.attestedCredential?.aaguid == Array("appattest".utf8) + [0, 0, 0, 0, 0, 0, 0])
    }
}
