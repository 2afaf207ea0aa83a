import Crypto
import Foundation

/// Verifies Google Play Integrity verdict tokens locally with the app's provisioned keys
/// (https://developer.android.com/google/play/integrity/classic#decrypt-verify).
public struct PlayIntegrityVerifier: Sendable {
    /// What the token must be bound to.
    public enum Binding: Sendable, Hashable {
        /// A classic request: `requestDetails.nonce` equals this value.
        case nonce(String)
        /// A standard request: `requestDetails.requestHash` equals this value.
        case requestHash(String)
    }

    /// The app's keys and accepted verdicts.
    public let configuration: PlayIntegrityConfiguration

    /// Creates a verifier.
    public init(configuration: PlayIntegrityConfiguration) {
        self.configuration = configuration
    }

    /// Decrypts, verifies and checks a verdict token.
    /// - Parameters:
    ///   - token: the compact JWE the device received from the Play Integrity API.
    ///   - binding: the nonce or request hash the server expects.
    ///   - now: the current time.
    /// - Returns: the verified payload.
    /// - Throws: `DeviceIntegrityError` naming the first failed check.
    public func verify(_ token: String, binding: Binding, now: Date) throws(DeviceIntegrityError) -> PlayIntegrityPayload {
        let jws = try CompactJOSE.decrypt(token, key: configuration.decryptionKey)
        guard let jwsText = String(validating: jws, as: UTF8.self) else { throw .malformedToken("JWE plaintext is not UTF-8") }
        let payloadBytes = try CompactJOSE.verify(jwsText, key: configuration.verificationKey)
        let payload: PlayIntegrityPayload
        do {
            payload = try JSONDecoder().decode(PlayIntegrityPayload.self, from: Data(payloadBytes))
        } catch {
            throw .malformedToken("verdict payload lacks a required field")
        }
        try check(payload, binding: binding, now: now)
        return payload
    }

    private func check(_ payload: PlayIntegrityPayload, binding: Binding, now: Date) throws(DeviceIntegrityError) {
        let request = payload.requestDetails
        guard request.requestPackageName == configuration.packageName else {
            throw .packageNameMismatch(expected: configuration.packageName, received: request.requestPackageName)
        }
        switch binding {
        case .nonce(let expected): guard request.nonce == expected else { throw .nonceMismatch }
        case .requestHash(let expected): guard request.requestHash == expected else { throw .nonceMismatch }
        }
        let nowMillis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let (ageMillis, overflow) = nowMillis.subtractingReportingOverflow(request.timestampMillis)
        let (seconds, attoseconds) = configuration.maximumAge.components
        let maximumMillis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        guard !overflow, ageMillis <= maximumMillis, ageMillis >= -maximumMillis else {
            throw .staleVerdict(ageSeconds: overflow ? Int64.max : ageMillis / 1000)
        }
        guard configuration.acceptedAppVerdicts.contains(payload.appIntegrity.appRecognitionVerdict) else {
            throw .appNotRecognized(payload.appIntegrity.appRecognitionVerdict)
        }
        let labels = payload.deviceIntegrity.deviceRecognitionVerdict ?? []
        guard labels.contains("MEETS_DEVICE_INTEGRITY") else { throw .deviceIntegrityNotMet(labels) }
        if configuration.requireLicensed, payload.accountDetails.appLicensingVerdict != "LICENSED" {
            throw .unlicensed(payload.accountDetails.appLicensingVerdict)
        }
    }
}
