import Crypto
import Foundation
import Testing
@testable import DeviceIntegrity

@Suite struct PlayIntegrityVerifierTests {
    let google = TestPlayIntegrity()
    let verifier: PlayIntegrityVerifier
    let binding = PlayIntegrityVerifier.Binding.nonce("bm9uY2UtMQ")

    init() throws {
        verifier = PlayIntegrityVerifier(configuration: try google.configuration())
    }

    func verify(_ token: String, binding: PlayIntegrityVerifier.Binding? = nil) throws -> PlayIntegrityPayload {
        try verifier.verify(token, binding: binding ?? self.binding, now: TestPlayIntegrity.now)
    }

    @Test func acceptsAValidToken() throws {
        let payload = try verify(try google.token(TestPlayIntegrity.payload()))
        #expect(payload.requestDetails.requestPackageName == "app.kindred.closer")
        #expect(payload.requestDetails.timestampMillis == 1_790_000_000_000)
        #expect(payload.deviceIntegrity.deviceRecognitionVerdict == ["MEETS_DEVICE_INTEGRITY"])
        let standard = try google.token(TestPlayIntegrity.payload(nonce: nil, requestHash: "aGFzaA"))
        #expect(try verify(standard, binding: .requestHash("aGFzaA")).requestDetails.requestHash == "aGFzaA")
        #expect(throws: DeviceIntegrityError.nonceMismatch) { try verify(standard, binding: .nonce("aGFzaA")) }
    }

    @Test func refusesAWrongPackage() throws {
        let token = try google.token(TestPlayIntegrity.payload(package: "com.example.repackaged"))
        #expect(throws: DeviceIntegrityError.packageNameMismatch(expected: "app.kindred.closer", received: "com.example.repackaged")) {
            try verify(token)
        }
    }

    @Test func refusesAWrongNonce() throws {
        let token = try google.token(TestPlayIntegrity.payload(nonce: "b3RoZXI"))
        #expect(throws: DeviceIntegrityError.nonceMismatch) { try verify(token) }
        let none = try google.token(TestPlayIntegrity.payload(nonce: nil))
        #expect(throws: DeviceIntegrityError.nonceMismatch) { try verify(none) }
    }

    @Test func refusesStaleAndFutureTimestamps() throws {
        let stale = try google.token(TestPlayIntegrity.payload(timestamp: TestPlayIntegrity.now - 301))
        #expect(throws: DeviceIntegrityError.staleVerdict(ageSeconds: 301)) { try verify(stale) }
        let future = try google.token(TestPlayIntegrity.payload(timestamp: TestPlayIntegrity.now + 600))
        #expect(throws: DeviceIntegrityError.staleVerdict(ageSeconds: -600)) { try verify(future) }
        let edge = try google.token(TestPlayIntegrity.payload(timestamp: TestPlayIntegrity.now - 300))
        #expect(throws: Never.self) { try verify(edge) }
    }

    @Test func refusesFailedVerdicts() throws {
        let unrecognized = try google.token(TestPlayIntegrity.payload(appVerdict: "UNRECOGNIZED_VERSION"))
        #expect(throws: DeviceIntegrityError.appNotRecognized("UNRECOGNIZED_VERSION")) { try verify(unrecognized) }
        let basic = try google.token(TestPlayIntegrity.payload(deviceVerdicts: ["MEETS_BASIC_INTEGRITY"]))
        #expect(throws: DeviceIntegrityError.deviceIntegrityNotMet(["MEETS_BASIC_INTEGRITY"])) { try verify(basic) }
        let none = try google.token(TestPlayIntegrity.payload(deviceVerdicts: nil))
        #expect(throws: DeviceIntegrityError.deviceIntegrityNotMet([])) { try verify(none) }
        let unlicensed = try google.token(TestPlayIntegrity.payload(licensing: "UNLICENSED"))
        #expect(throws: DeviceIntegrityError.unlicensed("UNLICENSED")) { try verify(unlicensed) }
    }

    @Test func refusesATamperedTagCiphertextOrWrongKey() throws {
        let token = try google.token(TestPlayIntegrity.payload())
        var parts = token.split(separator: ".").map(String.init)
        var tag = Base64URL.decode(parts[4][...]) ?? []
        tag[0] ^= 1
        parts[4] = Base64URL.encode(tag)
        #expect(throws: DeviceIntegrityError.decryptionFailed) { try verify(parts.joined(separator: ".")) }

        var ciphertextParts = token.split(separator: ".").map(String.init)
        var ciphertext = Base64URL.decode(ciphertextParts[3][...]) ?? []
        ciphertext[ciphertext.count - 1] ^= 0x80
        ciphertextParts[3] = Base64URL.encode(ciphertext)
        #expect(throws: DeviceIntegrityError.decryptionFailed) { try verify(ciphertextParts.joined(separator: ".")) }

        let otherKey = try google.jwe(try google.jws(TestPlayIntegrity.payload()), key: SymmetricKey(size: .bits256))
        #expect(throws: DeviceIntegrityError.decryptionFailed) { try verify(otherKey) }
    }

    @Test func refusesABadSignature() throws {
        let forged = try google.jwe(try google.jws(TestPlayIntegrity.payload(), signer: P256.Signing.PrivateKey()))
        #expect(throws: DeviceIntegrityError.invalidSignature) { try verify(forged) }
    }

    @Test func refusesOtherAlgorithmsAndMalformedTokens() throws {
        let jws = try google.jws(TestPlayIntegrity.payload())
        #expect(throws: DeviceIntegrityError.unsupportedAlgorithm("RSA-OAEP")) {
            try verify(try google.jwe(jws, header: #"{"alg":"RSA-OAEP","enc":"A256GCM"}"#))
        }
        #expect(throws: DeviceIntegrityError.unsupportedAlgorithm("A128GCM")) {
            try verify(try google.jwe(jws, header: #"{"alg":"A256KW","enc":"A128GCM"}"#))
        }
        let hs256 = try google.jwe(try google.jws(TestPlayIntegrity.payload(), header: #"{"alg":"HS256"}"#))
        #expect(throws: DeviceIntegrityError.unsupportedAlgorithm("HS256")) { try verify(hs256) }
        #expect(throws: DeviceIntegrityError.malformedToken("JWE has 1 parts, needs 5")) { try verify("abc") }
        #expect(throws: DeviceIntegrityError.malformedToken("JOSE header is not base64url JSON with alg")) { try verify("a.b.c.d.e") }
        let token = try google.token(TestPlayIntegrity.payload())
        #expect(throws: DeviceIntegrityError.malformedToken("JWE part is not base64url")) {
            try verify(token.replacingOccurrences(of: ".", with: ".!", range: token.range(of: ".")))
        }
        let notJSON = try google.jwe(try google.jws(["requestDetails": ["requestPackageName": "x"]]))
        #expect(throws: DeviceIntegrityError.malformedToken("verdict payload lacks a required field")) { try verify(notJSON) }
    }

    @Test func refusesBadConfiguration() {
        #expect(throws: DeviceIntegrityError.invalidConfiguration("decryption key is not 32 bytes of base64")) {
            try PlayIntegrityConfiguration(packageName: "p", decryptionKeyBase64: "AAAA", verificationKeyBase64: "")
        }
        #expect(throws: DeviceIntegrityError.invalidConfiguration("verification key is not a base64 DER P-256 public key")) {
            try PlayIntegrityConfiguration(
                packageName: "p", decryptionKeyBase64: Data(count: 32).base64EncodedString(), verificationKeyBase64: "AAAA")
        }
    }
}
