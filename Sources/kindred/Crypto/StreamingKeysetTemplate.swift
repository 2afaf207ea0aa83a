import KindredCrypto

/// The `aes256-gcm-hkdf-1mb` template of `kindred crypto keyset new`: a one-key Tink keyset
/// for `kindred crypto streaming` (AesGcmHkdfStreamingKey, 1 MiB segments, RAW, primary).
enum StreamingKeysetTemplate {
    /// The template name on the command line.
    static let name = "aes256-gcm-hkdf-1mb"

    /// A fresh keyset from Tink's `AES256_GCM_HKDF_1MB` template.
    static func newKeyset() -> Keyset { Keyset.generateAES256GCMHKDF1MB() }
}
