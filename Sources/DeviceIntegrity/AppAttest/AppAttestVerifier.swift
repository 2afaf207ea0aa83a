import Crypto
import Foundation
import X509

/// Verifies Apple App Attest attestations and assertions for one app.
///
/// Follows "Validating apps that connect to your server"
/// (https://developer.apple.com/documentation/devicecheck/validating-apps-that-connect-to-your-server).
public struct AppAttestVerifier: Sendable {
    /// The app id, environment and trusted root this verifier checks against.
    public let configuration: AppAttestConfiguration
    private let decoder: CBORDecoder

    /// Creates a verifier.
    public init(configuration: AppAttestConfiguration, decoder: CBORDecoder = CBORDecoder()) {
        self.configuration = configuration
        self.decoder = decoder
    }

    /// Verifies an attestation object and returns the key to store.
    /// - Parameters:
    ///   - attestation: the CBOR attestation object from `DCAppAttestService.attestKey`.
    ///   - keyID: the key identifier the device reported.
    ///   - clientData: the one-time challenge the server issued (hashed by the device into `clientDataHash`).
    ///   - now: the time the certificates must be valid at.
    /// - Returns: the attested key with counter 0.
    /// - Throws: `DeviceIntegrityError` naming the first failed step.
    public func verifyAttestation(
        _ attestation: [UInt8], keyID: [UInt8], clientData: [UInt8], now: Date
    ) async throws(DeviceIntegrityError) -> AppAttestKey {
        let object = try decode(attestation)
        guard let format = object["fmt"]?.textString else { throw .malformedObject("attestation has no fmt") }
        guard format == "apple-appattest" else { throw .unsupportedFormat(format) }
        guard let statement = object["attStmt"],
            let chain = statement["x5c"]?.arrayValue,
            let receipt = statement["receipt"]?.byteString,
            let authDataBytes = object["authData"]?.byteString
        else { throw .malformedObject("attestation lacks attStmt.x5c, attStmt.receipt or authData") }

        // Step 1: the certificate chain leads to the configured root.
        let certificates = try chain.enumerated().map { (index, value) throws(DeviceIntegrityError) -> Certificate in
            guard let der = value.byteString else { throw .malformedObject("x5c[\(index)] is not a byte string") }
            do {
                return try Certificate(derEncoded: der)
            } catch {
                throw .untrustedCertificateChain("x5c[\(index)] is not a certificate")
            }
        }
        guard let leaf = certificates.first else { throw .malformedObject("x5c is empty") }
        try await validateChain(leaf: leaf, intermediates: Array(certificates.dropFirst()), now: now)

        // Steps 2–4: the nonce binds authData and the client data.
        let nonce = Self.nonce(authenticatorData: authDataBytes, clientData: clientData)
        guard try AppAttestNonceExtension.nonce(in: leaf) == nonce else { throw .nonceMismatch }

        // Step 5: the key id is SHA256 of the leaf's public key.
        guard let publicKey = P256.Signing.PublicKey(leaf.publicKey) else {
            throw .malformedObject("leaf public key is not P-256")
        }
        let point = Array(publicKey.x963Representation)
        guard Array(SHA256.hash(data: point)) == keyID else { throw .keyIdentifierMismatch }

        // Steps 6–9: app id, counter, environment, credential id.
        let authData = try AuthenticatorData(bytes: authDataBytes)
        guard authData.relyingPartyIDHash == appIDHash else { throw .appIdentifierMismatch }
        guard authData.counter == 0 else { throw .counterNotZero(authData.counter) }
        guard let credential = authData.attestedCredential else {
            throw .malformedObject("authData has no attested credential data")
        }
        guard credential.aaguid == configuration.environment.aaguid else { throw .environmentMismatch }
        guard credential.credentialID == keyID else { throw .keyIdentifierMismatch }
        return AppAttestKey(keyID: keyID, publicKey: point, counter: 0, receipt: receipt)
    }

    /// Verifies an assertion made with a stored key and returns the key with its new counter.
    /// - Parameters:
    ///   - assertion: the CBOR assertion from `DCAppAttestService.generateAssertion`.
    ///   - clientData: the request data the device hashed into `clientDataHash` (including the server's challenge).
    ///   - key: the stored key.
    /// - Returns: `key` with `counter` set to the assertion's.
    /// - Throws: `DeviceIntegrityError` naming the first failed step.
    public func verifyAssertion(
        _ assertion: [UInt8], clientData: [UInt8], key: AppAttestKey
    ) throws(DeviceIntegrityError) -> AppAttestKey {
        let object = try decode(assertion)
        guard let signatureBytes = object["signature"]?.byteString,
            let authDataBytes = object["authenticatorData"]?.byteString
        else { throw .malformedObject("assertion lacks signature or authenticatorData") }
        let publicKey: P256.Signing.PublicKey
        do {
            publicKey = try P256.Signing.PublicKey(x963Representation: key.publicKey)
        } catch {
            throw .invalidConfiguration("stored public key is not a P-256 point")
        }
        // Steps 1–3: the signature covers SHA256(authenticatorData || SHA256(clientData)).
        let nonce = Self.nonce(authenticatorData: authDataBytes, clientData: clientData)
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: nonce)
        else { throw .invalidSignature }
        // Steps 4–5: app id and a strictly increasing counter.
        let authData = try AuthenticatorData(bytes: authDataBytes)
        guard authData.relyingPartyIDHash == appIDHash else { throw .appIdentifierMismatch }
        guard authData.counter > key.counter else {
            throw .counterNotIncreasing(stored: key.counter, received: authData.counter)
        }
        var updated = key
        updated.counter = authData.counter
        return updated
    }

    /// SHA256(authenticatorData || SHA256(clientData)), the value App Attest binds and signs.
    public static func nonce(authenticatorData: [UInt8], clientData: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: authenticatorData + Array(SHA256.hash(data: clientData))))
    }

    private var appIDHash: [UInt8] { Array(SHA256.hash(data: Array(configuration.appID.utf8))) }

    private func decode(_ bytes: [UInt8]) throws(DeviceIntegrityError) -> CBORValue {
        do {
            return try decoder.decode(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
    }

    private func validateChain(leaf: Certificate, intermediates: [Certificate], now: Date) async throws(DeviceIntegrityError) {
        var verifier = Verifier(rootCertificates: CertificateStore([configuration.rootCertificate])) {
            RFC5280Policy(fixedValidationTime: now)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates))
        switch result {
        case .validCertificate(let chain):
            guard chain.last == configuration.rootCertificate else {
                throw .untrustedCertificateChain("chain does not end at the App Attest root")
            }
        case .couldNotValidate(let failures):
            let reason = failures.first.map { "\($0.policyFailureReason)" } ?? "no chain to the App Attest root"
            throw .untrustedCertificateChain(reason)
        }
    }
}
