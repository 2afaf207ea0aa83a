/// `pub:v1:` — a user's published ECIES P-256 public key: `"pub:v1:" + base64url-no-padding(
/// binary Tink public keyset)` (`users/{uid}/devices/{deviceId}.publicKey`).
/// Spec: `docs/wire-formats.md`, "pub:v1".
public enum CloserPublicKey {
    /// Encodes a public keyset for publication.
    /// - Parameter publicKeyset: the output of `Keyset.publicKeyset()` for an ECIES P-256 keyset.
    /// - Returns: the `pub:v1:` string.
    /// - Throws: `.invalidKeyset` if any key is not public key material (a private keyset is
    ///   never published), `TinkHybridEncrypt` errors for an unusable keyset, `.tooLong` beyond
    ///   1,024 characters.
    public static func encode(_ publicKeyset: Keyset) throws(KindredCryptoError) -> String {
        try check(publicKeyset)
        let wire = CloserWireFormat.Format.publicKey.prefix + Base64.encode(publicKeyset.serialized(), alphabet: .urlSafeNoPadding)
        let limit = CloserWireFormat.Format.publicKey.maximumLength
        guard wire.utf8.count <= limit else { throw .tooLong(format: CloserWireFormat.Format.publicKey.rawValue, limit: limit) }
        return wire
    }

    /// Decodes a published public key.
    /// - Parameter wire: the `pub:v1:` string.
    /// - Returns: the public keyset, checked usable for `TinkHybridEncrypt`.
    /// - Throws: `.wrongPrefix`, `.tooLong`, `.truncated`, `.malformed`, keyset errors,
    ///   `.invalidKeyset` for non-public key material.
    public static func decode(_ wire: String) throws(KindredCryptoError) -> Keyset {
        let keyset = try Keyset(serialized: CloserWireFormat.decodeBody(wire, as: .publicKey))
        try check(keyset)
        return keyset
    }

    private static func check(_ keyset: Keyset) throws(KindredCryptoError) {
        guard !keyset.keys.isEmpty, keyset.keys.allSatisfy({ $0.keyData.keyMaterialType == .asymmetricPublic }) else {
            throw .invalidKeyset(reason: "a published key must hold only public key material")
        }
        _ = try TinkHybridEncrypt(publicKeyset: keyset)
    }
}
