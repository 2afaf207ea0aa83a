import Crypto
import Foundation

/// One Android app's Play Integrity keys and the verdicts it accepts.
public struct PlayIntegrityConfiguration: Sendable {
    /// The app's package name.
    public var packageName: String
    /// The provisioned AES-256 decryption key.
    public var decryptionKey: SymmetricKey
    /// The provisioned EC P-256 verification key.
    public var verificationKey: P256.Signing.PublicKey
    /// How old (or how far in the future) a verdict may be.
    public var maximumAge: Duration
    /// The accepted `appRecognitionVerdict` values.
    public var acceptedAppVerdicts: Set<String>
    /// Whether `appLicensingVerdict` must be `LICENSED`.
    public var requireLicensed: Bool

    /// Creates a configuration from the keys as Play Console shows them.
    /// - Parameters:
    ///   - packageName: the app's package name.
    ///   - decryptionKeyBase64: the decryption key, base64 (32 bytes).
    ///   - verificationKeyBase64: the verification key, base64 DER SubjectPublicKeyInfo.
    ///   - maximumAge: the accepted age of a verdict; five minutes unless given.
    ///   - acceptedAppVerdicts: `PLAY_RECOGNIZED` unless given.
    ///   - requireLicensed: true unless given.
    /// - Throws: `DeviceIntegrityError.invalidConfiguration` when a key does not decode.
    public init(
        packageName: String, decryptionKeyBase64: String, verificationKeyBase64: String,
        maximumAge: Duration = .seconds(300), acceptedAppVerdicts: Set<String> = ["PLAY_RECOGNIZED"],
        requireLicensed: Bool = true
    ) throws(DeviceIntegrityError) {
        guard !packageName.isEmpty else { throw .invalidConfiguration("package name is required") }
        guard let aes = Data(base64Encoded: decryptionKeyBase64), aes.count == 32 else {
            throw .invalidConfiguration("decryption key is not 32 bytes of base64")
        }
        guard let der = Data(base64Encoded: verificationKeyBase64),
            let key = try? P256.Signing.PublicKey(derRepresentation: der)
        else { throw .invalidConfiguration("verification key is not a base64 DER P-256 public key") }
        self.packageName = packageName
        self.decryptionKey = SymmetricKey(data: aes)
        self.verificationKey = key
        self.maximumAge = maximumAge
        self.acceptedAppVerdicts = acceptedAppVerdicts
        self.requireLicensed = requireLicensed
    }
}
