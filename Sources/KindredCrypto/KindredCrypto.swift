/// KindredCrypto: every end-to-end wire format of the Kindred apps.
///
/// - Argon2id (RFC 9106) with BLAKE2b, and its PHC string form.
/// - Tink-compatible keysets, AEAD (AES-256-GCM), hybrid encryption
///   (ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM) and streaming AEAD (AES256_GCM_HKDF_1MB).
/// - Closer's `enc:v1:`, `sealed:v1:`, `sha256:`, `keybox:v1:`, `pub:v1:` formats, recovery
///   phrases, couple-key wrapping and the invite transport.
/// - SoulMate's chat envelopes.
///
/// The byte layouts are specified in `docs/wire-formats.md`. This module does no I/O.
public enum KindredCrypto {
    /// The version of the wire-format specification this module implements.
    public static let specificationVersion = "1"
}
