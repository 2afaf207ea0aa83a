/// Why an attestation, assertion or verdict token was not accepted.
public enum DeviceIntegrityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration is unusable (a root certificate, key or identifier is invalid).
    case invalidConfiguration(String)
    /// The CBOR encoding of an attestation or assertion is malformed.
    case malformedCBOR(CBORError)
    /// The object decoded but lacks a field or holds one of the wrong type or size.
    case malformedObject(String)
    /// The attestation statement format is not `apple-appattest`.
    case unsupportedFormat(String)
    /// The certificate chain does not lead to the configured root (or a certificate is unreadable).
    case untrustedCertificateChain(String)
    /// The nonce in the leaf certificate does not match SHA256(authData || SHA256(clientData)).
    case nonceMismatch
    /// The key identifier is not SHA256 of the leaf's public key, or the credential id differs from it.
    case keyIdentifierMismatch
    /// The relying-party id hash is not SHA256 of the configured app id.
    case appIdentifierMismatch
    /// An attestation's counter is not zero.
    case counterNotZero(UInt32)
    /// An assertion's counter is not greater than the stored one.
    case counterNotIncreasing(stored: UInt32, received: UInt32)
    /// The AAGUID does not match the configured environment.
    case environmentMismatch
    /// A signature does not verify with the expected key.
    case invalidSignature
    /// A Play Integrity token is not a well-formed compact JWE/JWS.
    case malformedToken(String)
    /// A JOSE header names an algorithm other than A256KW / A256GCM / ES256.
    case unsupportedAlgorithm(String)
    /// The token could not be decrypted with the provisioned key (wrong key or tampered bytes).
    case decryptionFailed
    /// The verdict was issued for another package.
    case packageNameMismatch(expected: String, received: String)
    /// The verdict is older (or further in the future) than the accepted window.
    case staleVerdict(ageSeconds: Int64)
    /// The app is not recognized by Google Play (`appRecognitionVerdict`).
    case appNotRecognized(String)
    /// `deviceRecognitionVerdict` lacks `MEETS_DEVICE_INTEGRITY`.
    case deviceIntegrityNotMet([String])
    /// `appLicensingVerdict` is not `LICENSED`.
    case unlicensed(String)

    /// A one-line explanation, safe to record as a verdict's reason.
    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "invalid integrity configuration: \(why)"
        case .malformedCBOR(let error): "malformed CBOR: \(error)"
        case .malformedObject(let why): "malformed object: \(why)"
        case .unsupportedFormat(let format): "unsupported attestation format \(format)"
        case .untrustedCertificateChain(let why): "certificate chain not trusted: \(why)"
        case .nonceMismatch: "nonce does not match"
        case .keyIdentifierMismatch: "key identifier does not match the certificate's key"
        case .appIdentifierMismatch: "app identifier does not match"
        case .counterNotZero(let counter): "attestation counter is \(counter), not 0"
        case .counterNotIncreasing(let stored, let received): "counter \(received) is not greater than \(stored)"
        case .environmentMismatch: "AAGUID does not match the environment"
        case .invalidSignature: "signature does not verify"
        case .malformedToken(let why): "malformed token: \(why)"
        case .unsupportedAlgorithm(let alg): "unsupported algorithm \(alg)"
        case .decryptionFailed: "token does not decrypt with the provisioned key"
        case .packageNameMismatch(let expected, let received): "package \(received) is not \(expected)"
        case .staleVerdict(let age): "verdict is \(age) s old"
        case .appNotRecognized(let verdict): "app not recognized: \(verdict)"
        case .deviceIntegrityNotMet(let labels): "device integrity not met: [\(labels.joined(separator: ","))]"
        case .unlicensed(let verdict): "app not licensed: \(verdict)"
        }
    }
}
