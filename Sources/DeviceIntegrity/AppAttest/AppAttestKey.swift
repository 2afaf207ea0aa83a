/// An attested App Attest key, as the server stores it after a successful attestation.
public struct AppAttestKey: Sendable, Hashable, Codable {
    /// The key identifier: SHA256 of the public key's uncompressed point.
    public var keyID: [UInt8]
    /// The public key's uncompressed point (X9.63, 65 bytes).
    public var publicKey: [UInt8]
    /// The last counter seen: 0 after attestation, then each accepted assertion's.
    public var counter: UInt32
    /// The App Attest receipt from the attestation (for fraud-metric requests to Apple).
    public var receipt: [UInt8]

    /// Creates a stored key.
    public init(keyID: [UInt8], publicKey: [UInt8], counter: UInt32, receipt: [UInt8]) {
        self.keyID = keyID
        self.publicKey = publicKey
        self.counter = counter
        self.receipt = receipt
    }
}
