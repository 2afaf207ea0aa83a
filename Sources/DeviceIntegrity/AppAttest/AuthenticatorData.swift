/// WebAuthn authenticator data as App Attest uses it
/// (https://www.w3.org/TR/webauthn-2/#sctn-authenticator-data).
public struct AuthenticatorData: Sendable, Hashable {
    /// SHA256 of the relying-party id (the app id, `TEAMID.bundle.id`).
    public var relyingPartyIDHash: [UInt8]
    /// The flags byte.
    public var flags: UInt8
    /// The signature counter, big endian in the encoding.
    public var counter: UInt32
    /// The attested credential data, present when flag AT (0x40) is set.
    public var attestedCredential: AttestedCredential?

    /// The attested credential data of an attestation.
    public struct AttestedCredential: Sendable, Hashable {
        /// 16 bytes: `appattestdevelop` or `appattest` followed by seven zero bytes.
        public var aaguid: [UInt8]
        /// The credential id (App Attest: the key identifier).
        public var credentialID: [UInt8]
    }

    /// Parses authenticator data.
    /// - Parameter bytes: the raw authenticator data.
    /// - Throws: `DeviceIntegrityError.malformedObject` when it is too short or inconsistent.
    public init(bytes: [UInt8]) throws(DeviceIntegrityError) {
        guard bytes.count >= 37 else { throw .malformedObject("authenticator data has \(bytes.count) bytes, needs 37") }
        relyingPartyIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags & 0x40 != 0 else {
            attestedCredential = nil
            return
        }
        guard bytes.count >= 55 else { throw .malformedObject("attested credential data is truncated") }
        let aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard bytes.count >= 55 + length else { throw .malformedObject("credential id is truncated") }
        attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: Array(bytes[55..<(55 + length)]))
    }
}
