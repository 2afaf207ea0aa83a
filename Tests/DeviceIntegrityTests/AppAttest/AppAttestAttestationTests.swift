import Crypto
import Foundation
import Testing
import X509
@testable import DeviceIntegrity

@Suite struct AppAttestAttestationTests {
    let device: TestAppAttestDevice
    let verifier: AppAttestVerifier
    let challenge = Array("server-challenge-0001".utf8)

    init() throws {
        device = try TestAppAttestDevice()
        verifier = AppAttestVerifier(configuration: try device.configuration())
    }

    func verify(_ object: [UInt8], keyID: [UInt8]? = nil, clientData: [UInt8]? = nil) async throws -> AppAttestKey {
        try await verifier.verifyAttestation(
            object, keyID: keyID ?? device.keyID, clientData: clientData ?? challenge, now: TestAppAttestDevice.now)
    }

    func expectFailure(_ expected: DeviceIntegrityError, _ object: [UInt8], keyID: [UInt8]? = nil, clientData: [UInt8]? = nil) async {
        await #expect(throws: expected) { try await verify(object, keyID: keyID, clientData: clientData) }
    }

    @Test func acceptsAValidAttestation() async throws {
        let object = try device.attestation(authData: device.attestationAuthData(), clientData: challenge)
        let key = try await verify(object)
        #expect(key.keyID == device.keyID)
        #expect(key.publicKey == Array(device.deviceKey.publicKey.x963Representation))
        #expect(key.publicKey.count == 65)
        #expect(key.counter == 0)
        #expect(key.receipt == Array("receipt".utf8))
    }

    @Test func acceptsTheDevelopmentEnvironment() async throws {
        let development = AppAttestVerifier(configuration: try device.configuration(environment: .development))
        let authData = device.attestationAuthData(aaguid: Array("appattestdevelop".utf8))
        let object = try device.attestation(authData: authData, clientData: challenge)
        let key = try await development.verifyAttestation(object, keyID: device.keyID, clientData: challenge, now: TestAppAttestDevice.now)
        #expect(key.counter == 0)
        // The same object is refused in production.
        await expectFailure(.environmentMismatch, object)
    }

    @Test func refusesAnotherRoot() async throws {
        let object = try device.attestation(authData: device.attestationAuthData(), clientData: challenge)
        let other = try TestAppAttestDevice()
        let foreign = AppAttestVerifier(configuration: try other.configuration())
        await #expect(throws: DeviceIntegrityError.self) {
            try await foreign.verifyAttestation(object, keyID: device.keyID, clientData: challenge, now: TestAppAttestDevice.now)
        }
        do {
            _ = try await foreign.verifyAttestation(object, keyID: device.keyID, clientData: challenge, now: TestAppAttestDevice.now)
        } catch {
            guard case .untrustedCertificateChain = error else { Issue.record("expected untrusted chain, got \(error)"); return }
        }
    }

    @Test func refusesALeafSignedByAnUnknownKeyOrAMissingIntermediate() async throws {
        let authData = device.attestationAuthData()
        let nonce = AppAttestVerifier.nonce(authenticatorData: authData, clientData: challenge)
        let forged = try device.leaf(nonce: nonce, issuerKey: P256.Signing.PrivateKey())
        for chain in [[forged, device.intermediate], [try device.leaf(nonce: nonce)]] {
            let object = try device.attestation(authData: authData, clientData: challenge, chain: chain)
            do {
                _ = try await verify(object)
                Issue.record("accepted an untrusted chain")
            } catch {
                guard case .untrustedCertificateChain = error as? DeviceIntegrityError else {
                    Issue.record("expected untrusted chain, got \(error)")
                    return
                }
            }
        }
    }

    @Test func refusesExpiredCertificates() async throws {
        let object = try device.attestation(authData: device.attestationAuthData(), clientData: challenge)
        do {
            _ = try await verifier.verifyAttestation(
                object, keyID: device.keyID, clientData: challenge, now: TestAppAttestDevice.now + 86_400 * 2)
            Issue.record("accepted an expired leaf")
        } catch {
            guard case .untrustedCertificateChain = error else { Issue.record("got \(error)"); return }
        }
    }

    @Test func refusesAWrongNonce() async throws {
        let authData = device.attestationAuthData()
        let wrong = try device.attestation(authData: authData, clientData: challenge, nonce: [UInt8](repeating: 1, count: 32))
        await expectFailure(.nonceMismatch, wrong)
        // Another challenge than the one bound in the certificate.
        let object = try device.attestation(authData: authData, clientData: challenge)
        await expectFailure(.nonceMismatch, object, clientData: Array("another-challenge".utf8))
    }

    @Test func refusesAWrongAppID() async throws {
        let authData = device.attestationAuthData(appID: "ABCDE12345.app.kindred.other")
        await expectFailure(.appIdentifierMismatch, try device.attestation(authData: authData, clientData: challenge))
    }

    @Test func refusesAWrongKeyIDOrCredentialID() async throws {
        let object = try device.attestation(authData: device.attestationAuthData(), clientData: challenge)
        await expectFailure(.keyIdentifierMismatch, object, keyID: [UInt8](repeating: 9, count: 32))
        let authData = device.attestationAuthData(credentialID: [UInt8](repeating: 9, count: 32))
        await expectFailure(.keyIdentifierMismatch, try device.attestation(authData: authData, clientData: challenge))
    }

    @Test func refusesANonZeroCounter() async throws {
        let authData = device.attestationAuthData(counter: 1)
        await expectFailure(.counterNotZero(1), try device.attestation(authData: authData, clientData: challenge))
    }

    @Test func refusesAnotherFormatAndMissingFields() async throws {
        let authData = device.attestationAuthData()
        await expectFailure(.unsupportedFormat("packed"), try device.attestation(authData: authData, clientData: challenge, format: "packed"))
        let bare = TestCBOREncoder.encode(TestCBOREncoder.map(["fmt": .text("apple-appattest"), "authData": .bytes(authData)]))
        await expectFailure(.malformedObject("attestation lacks attStmt.x5c, attStmt.receipt or authData"), bare)
        let notCertificate = TestCBOREncoder.encode(TestCBOREncoder.map([
            "fmt": .text("apple-appattest"),
            "attStmt": TestCBOREncoder.map(["x5c": .array([.bytes([0x30, 0x00])]), "receipt": .bytes([])]),
            "authData": .bytes(authData),
        ]))
        await expectFailure(.untrustedCertificateChain("x5c[0] is not a certificate"), notCertificate)
    }

    @Test func refusesTruncatedCBOR() async throws {
        let object = try device.attestation(authData: device.attestationAuthData(), clientData: challenge)
        // The cut falls inside authData (the last item, a two-byte head), whose declared length now exceeds the input.
        let authDataCount = device.attestationAuthData().count
        await expectFailure(
            .malformedCBOR(.lengthTooLarge(UInt64(authDataCount), offset: object.count - authDataCount - 2)),
            Array(object.dropLast(10)))
        await expectFailure(.malformedCBOR(.trailingBytes(offset: object.count)), object + [0])
    }

    @Test func refusesAnInvalidRootPEM() {
        #expect(throws: DeviceIntegrityError.self) {
            try AppAttestConfiguration(teamID: "T", bundleID: "b", environment: .production, rootCertificatePEM: "not pem")
        }
    }
}
