import Crypto
import DeviceIntegrity
import Foundation
@testable import KindredServerCore
import SwiftASN1
import X509

/// A fake App Attest CA and device for the server's tests: a root, an intermediate, and a leaf
/// per attestation carrying the nonce extension (as Tests/DeviceIntegrityTests builds them).
struct IntegrityTestDevice: Sendable {
    static let teamID = "ABCDE12345"
    static let bundleID = "dev.kindred.closer"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let deviceKey = P256.Signing.PrivateKey()
    let root: Certificate
    let intermediate: Certificate

    init() throws {
        root = try Self.caCertificate(name: "Test App Attest Root", key: rootKey, issuerKey: rootKey)
        intermediate = try Self.caCertificate(name: "Test App Attest CA 1", key: intermediateKey, issuerKey: rootKey)
        // Both are issued by the root, whose name is the issuer of each.
    }

    /// The key id's bytes: SHA-256 of the device key's uncompressed point.
    var keyIDBytes: [UInt8] { Array(SHA256.hash(data: deviceKey.publicKey.x963Representation)) }
    /// The key id as the device sends it (standard base64), also its `Kindred-Device-Key`.
    var keyID: String { Data(keyIDBytes).base64EncodedString() }

    /// The server's App Attest settings trusting this test root.
    func configuration(environment: AppAttestConfiguration.Environment = .production) throws -> AppAttestConfiguration {
        try AppAttestConfiguration(
            teamID: Self.teamID, bundleID: Self.bundleID, environment: environment,
            rootCertificatePEM: try root.serializeAsPEM().pemString)
    }

    static func caCertificate(name: String, key: P256.Signing.PrivateKey, issuerKey: P256.Signing.PrivateKey) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 86_400 * 365, notValidAfter: now + 86_400 * 365,
            issuer: try DistinguishedName { CommonName("Test App Attest Root") },
            subject: try DistinguishedName { CommonName(name) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
                Certificate.Extension(KeyUsage(keyCertSign: true), critical: true),
            ]),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }

    /// `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`, the nonce extension's value.
    static func nonceExtensionValue(_ nonce: [UInt8]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) { inner in
                try inner.serialize(ASN1OctetString(contentBytes: nonce[...]))
            }
        }
        return serializer.serializedBytes
    }

    func leaf(nonce: [UInt8]) throws -> Certificate {
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
            issuerPrivateKey: Certificate.PrivateKey(intermediateKey))
    }

    static var rpIDHash: [UInt8] { Array(SHA256.hash(data: Array("\(teamID).\(bundleID)".utf8))) }

    /// A base64 attestation object over `challenge` (`clientData` overrides what the nonce binds).
    func attestation(challenge: String, clientData: String? = nil) throws -> String {
        let coseKey = IntegrityCBOR.encode(.map([
            CBORMapEntry(key: .unsigned(1), value: .unsigned(2)),
            CBORMapEntry(key: .unsigned(3), value: .negative(6)),
        ]))
        let authData = Self.rpIDHash + [0x40] + IntegrityCBOR.bigEndian(0, 4)
            + AppAttestConfiguration.Environment.production.aaguid
            + IntegrityCBOR.bigEndian(UInt64(keyIDBytes.count), 2) + keyIDBytes + coseKey
        let nonce = AppAttestVerifier.nonce(authenticatorData: authData, clientData: Array((clientData ?? challenge).utf8))
        let x5c = try [leaf(nonce: nonce), intermediate].map { certificate -> CBORValue in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return .bytes(serializer.serializedBytes)
        }
        let object = IntegrityCBOR.encode(IntegrityCBOR.map([
            ("fmt", .text("apple-appattest")),
            ("attStmt", IntegrityCBOR.map([("x5c", .array(x5c)), ("receipt", .bytes(Array("receipt".utf8)))])),
            ("authData", .bytes(authData)),
        ]))
        return Data(object).base64EncodedString()
    }

    /// A base64 assertion over `challenge` with `counter`, signed by the device key (or `signer`).
    func assertion(counter: UInt32, challenge: String, signer: P256.Signing.PrivateKey? = nil) throws -> String {
        let authData = Self.rpIDHash + [0x00] + IntegrityCBOR.bigEndian(UInt64(counter), 4)
        let nonce = AppAttestVerifier.nonce(authenticatorData: authData, clientData: Array(challenge.utf8))
        let signature = try (signer ?? deviceKey).signature(for: nonce).derRepresentation
        let object = IntegrityCBOR.encode(IntegrityCBOR.map([
            ("signature", .bytes(Array(signature))), ("authenticatorData", .bytes(authData)),
        ]))
        return Data(object).base64EncodedString()
    }
}

/// Google's side of Play Integrity in a test: provisioned keys and a token factory.
struct IntegrityTestPlay: Sendable {
    static let packageName = "dev.kindred.closer"

    let decryptionKey = SymmetricKey(size: .bits256)
    let signingKey = P256.Signing.PrivateKey()

    /// The server's Play Integrity settings with these keys.
    func configuration() throws -> PlayIntegrityConfiguration {
        try PlayIntegrityConfiguration(
            packageName: Self.packageName,
            decryptionKeyBase64: decryptionKey.withUnsafeBytes { Data($0) }.base64EncodedString(),
            verificationKeyBase64: signingKey.publicKey.derRepresentation.base64EncodedString())
    }

    /// A JWE(JWS(verdict)) token for `nonce`, issued at `now`.
    func token(nonce: String, package: String = packageName, now: Date) throws -> String {
        let payload: [String: Any] = [
            "requestDetails": [
                "requestPackageName": package, "nonce": nonce,
                "timestampMillis": String(Int64(now.timeIntervalSince1970 * 1000)),
            ],
            "appIntegrity": ["appRecognitionVerdict": "PLAY_RECOGNIZED", "packageName": package, "versionCode": "42"],
            "deviceIntegrity": ["deviceRecognitionVerdict": ["MEETS_DEVICE_INTEGRITY"]],
            "accountDetails": ["appLicensingVerdict": "LICENSED"],
        ]
        let body = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        let signingInput = Self.base64URL(Data(#"{"alg":"ES256"}"#.utf8)) + "." + Self.base64URL(body)
        let signature = try signingKey.signature(for: Array(signingInput.utf8)).rawRepresentation
        let jws = signingInput + "." + Self.base64URL(signature)

        let contentKey = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(contentKey, using: decryptionKey)
        let protected = Self.base64URL(Data(#"{"alg":"A256KW","enc":"A256GCM"}"#.utf8))
        let iv = AES.GCM.Nonce()
        let box = try AES.GCM.seal(Array(jws.utf8), using: contentKey, nonce: iv, authenticating: Array(protected.utf8))
        return [protected, Self.base64URL(wrapped), Self.base64URL(Data(iv)), Self.base64URL(box.ciphertext), Self.base64URL(box.tag)]
            .joined(separator: ".")
    }

    static func base64URL(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// A CBOR encoder for test objects (RFC 8949, definite lengths, shortest arguments).
enum IntegrityCBOR {
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let number): head(0, number)
        case .negative(let number): head(1, number)
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let values): head(4, UInt64(values.count)) + values.flatMap(encode)
        case .map(let entries): head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let flag): [flag ? 0xf5 : 0xf4]
        case .null: [0xf6]
        }
    }

    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<0x100: return [type | 24, UInt8(argument)]
        case 0x100..<0x10000: return [type | 25] + bigEndian(argument, 2)
        case 0x10000..<0x1_0000_0000: return [type | 26] + bigEndian(argument, 4)
        default: return [type | 27] + bigEndian(argument, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    static func map(_ pairs: [(String, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: .text($0.0), value: $0.1) })
    }
}
