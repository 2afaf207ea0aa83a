import Crypto
import Foundation
import SwiftASN1
import X509
@testable import DeviceIntegrity

/// A fake App Attest CA and device: a root, an intermediate, and a leaf per attestation whose
/// nonce extension the test controls.
struct TestAppAttestDevice {
    static let teamID = "ABCDE12345"
    static let bundleID = "app.kindred.closer"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let deviceKey = P256.Signing.PrivateKey()
    let root: Certificate
    let intermediate: Certificate

    init() throws {
        root = try Self.caCertificate(name: "Test App Attest Root", key: rootKey, issuerName: "Test App Attest Root", issuerKey: rootKey)
        intermediate = try Self.caCertificate(
            name: "Test App Attest CA 1", key: intermediateKey, issuerName: "Test App Attest Root", issuerKey: rootKey)
    }

    var keyID: [UInt8] { Array(SHA256.hash(data: deviceKey.publicKey.x963Representation)) }
    var rootPEM: String { get throws { try root.serializeAsPEM().pemString } }

    func configuration(environment: AppAttestConfiguration.Environment = .production) throws -> AppAttestConfiguration {
        try AppAttestConfiguration(
            teamID: Self.teamID, bundleID: Self.bundleID, environment: environment, rootCertificatePEM: rootPEM)
    }

    static func caCertificate(
        name: String, key: P256.Signing.PrivateKey, issuerName: String, issuerKey: P256.Signing.PrivateKey
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 86_400 * 365, notValidAfter: now + 86_400 * 365,
            issuer: try DistinguishedName { CommonName(issuerName) },
            subject: try DistinguishedName { CommonName(name) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
                Certificate.Extension(KeyUsage(keyCertSign: true), critical: true),
            ]),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }

    /// The DER value of the nonce extension: `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
    static func nonceExtensionValue(_ nonce: [UInt8]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) { inner in
                try inner.serialize(ASN1OctetString(contentBytes: nonce[...]))
            }
        }
        return serializer.serializedBytes
    }

    func leaf(nonce: [UInt8], issuerKey: P256.Signing.PrivateKey? = nil) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(deviceKey.publicKey),
            notValidBefore: Self.now - 86_400, notValidAfter: Self.now + 86_400,
            issuer: try DistinguishedName { CommonName("Test App Attest CA 1") },
            subject: try DistinguishedName { CommonName(Self.bundleID) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(
                    oid: [1, 2, 840, 113635, 100, 8, 2], critical: false, value: try Self.nonceExtensionValue(nonce)[...])
            ]),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey ?? intermediateKey))
    }

    static func rpIDHash(appID: String = "\(teamID).\(bundleID)") -> [UInt8] {
        Array(SHA256.hash(data: Array(appID.utf8)))
    }

    /// Authenticator data with attested credential data.
    func attestationAuthData(
        appID: String = "\(teamID).\(bundleID)", counter: UInt32 = 0,
        aaguid: [UInt8] = AppAttestConfiguration.Environment.production.aaguid, credentialID: [UInt8]? = nil
    ) -> [UInt8] {
        let credential = credentialID ?? keyID
        let coseKey = TestCBOREncoder.encode(.map([
            CBORMapEntry(key: .unsigned(1), value: .unsigned(2)),
            CBORMapEntry(key: .unsigned(3), value: .negative(6)),
        ]))
        return Self.rpIDHash(appID: appID) + [0x40] + TestCBOREncoder.bigEndian(UInt64(counter), 4) + aaguid
            + TestCBOREncoder.bigEndian(UInt64(credential.count), 2) + credential + coseKey
    }

    /// A full attestation object; `nonce` overrides the correct one, `chain` the certificates.
    func attestation(
        authData: [UInt8], clientData: [UInt8], nonce: [UInt8]? = nil, chain: [Certificate]? = nil,
        format: String = "apple-appattest"
    ) throws -> [UInt8] {
        let binding = nonce ?? AppAttestVerifier.nonce(authenticatorData: authData, clientData: clientData)
        let certificates = try chain ?? [leaf(nonce: binding), intermediate]
        let x5c = try certificates.map { certificate -> CBORValue in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return .bytes(serializer.serializedBytes)
        }
        return TestCBOREncoder.encode(TestCBOREncoder.map([
            "fmt": .text(format),
            "attStmt": TestCBOREncoder.map(["x5c": .array(x5c), "receipt": .bytes(Array("receipt".utf8))]),
            "authData": .bytes(authData),
        ]))
    }

    /// An assertion signed by the device key (or `signer`).
    func assertion(
        counter: UInt32, clientData: [UInt8], appID: String = "\(teamID).\(bundleID)",
        signer: P256.Signing.PrivateKey? = nil
    ) throws -> [UInt8] {
        let authData = Self.rpIDHash(appID: appID) + [0x00] + TestCBOREncoder.bigEndian(UInt64(counter), 4)
        let nonce = AppAttestVerifier.nonce(authenticatorData: authData, clientData: clientData)
        let signature = try (signer ?? deviceKey).signature(for: nonce).derRepresentation
        return TestCBOREncoder.encode(TestCBOREncoder.map([
            "signature": .bytes(Array(signature)),
            "authenticatorData": .bytes(authData),
        ]))
    }
}
