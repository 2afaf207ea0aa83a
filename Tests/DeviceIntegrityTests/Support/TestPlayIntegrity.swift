import Crypto
import Foundation
@testable import DeviceIntegrity

/// Google's side of Play Integrity in a test: provisioned keys and a token factory.
struct TestPlayIntegrity {
    static let packageName = "app.kindred.closer"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    let decryptionKey = SymmetricKey(size: .bits256)
    let signingKey = P256.Signing.PrivateKey()

    func configuration() throws -> PlayIntegrityConfiguration {
        try PlayIntegrityConfiguration(
            packageName: Self.packageName,
            decryptionKeyBase64: decryptionKey.withUnsafeBytes { Data($0) }.base64EncodedString(),
            verificationKeyBase64: signingKey.publicKey.derRepresentation.base64EncodedString())
    }

    static func payload(
        package: String = packageName, nonce: String? = "bm9uY2UtMQ", requestHash: String? = nil,
        timestamp: Date = now, appVerdict: String = "PLAY_RECOGNIZED",
        deviceVerdicts: [String]? = ["MEETS_DEVICE_INTEGRITY"], licensing: String = "LICENSED"
    ) -> [String: Any] {
        var request: [String: Any] = [
            "requestPackageName": package,
            "timestampMillis": String(Int64(timestamp.timeIntervalSince1970 * 1000)),
        ]
        request["nonce"] = nonce
        request["requestHash"] = requestHash
        var device: [String: Any] = [:]
        device["deviceRecognitionVerdict"] = deviceVerdicts
        return [
            "requestDetails": request,
            "appIntegrity": ["appRecognitionVerdict": appVerdict, "packageName": package, "versionCode": "42"],
            "deviceIntegrity": device,
            "accountDetails": ["appLicensingVerdict": licensing],
        ]
    }

    func jws(_ payload: [String: Any], header: String = #"{"alg":"ES256"}"#, signer: P256.Signing.PrivateKey? = nil) throws -> String {
        let body = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(body)
        let signature = try (signer ?? signingKey).signature(for: Array(signingInput.utf8)).rawRepresentation
        return signingInput + "." + Base64URL.encode(signature)
    }

    func jwe(_ plaintext: String, header: String = #"{"alg":"A256KW","enc":"A256GCM"}"#, key: SymmetricKey? = nil) throws -> String {
        let contentKey = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(contentKey, using: key ?? decryptionKey)
        let protected = Base64URL.encode(Array(header.utf8))
        let nonce = AES.GCM.Nonce()
        let box = try AES.GCM.seal(Array(plaintext.utf8), using: contentKey, nonce: nonce, authenticating: Array(protected.utf8))
        return [protected, Base64URL.encode(wrapped), Base64URL.encode(nonce), Base64URL.encode(box.ciphertext), Base64URL.encode(box.tag)]
            .joined(separator: ".")
    }

    func token(_ payload: [String: Any]) throws -> String {
        try jwe(try jws(payload))
    }
}
