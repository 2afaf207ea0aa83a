/// `enc:v1:` — Closer's field encryption under the couple key: `"enc:v1:" + Base64(Tink AEAD
/// ciphertext)` (standard alphabet, padded). The Tink ciphertext is `0x01 ‖ key id (4) ‖ IV (12)
/// ‖ AES-256-GCM ciphertext ‖ tag (16)` for a TINK-prefixed key; the associated data is the
/// UTF-8 `coupleId`. Spec: `docs/wire-formats/closer.md`, "enc:v1".
public struct CloserFieldCipher: Sendable {
    /// The wire format's name in errors.
    static let format = CloserWireFormat.Format.ciphertext.rawValue
    private let aead: TinkAEAD

    /// Creates a cipher for a couple's Tink AES-256-GCM keyset.
    /// - Parameter coupleKeyset: the couple keyset (as unwrapped by `WrappedCoupleKey.unwrap`).
    /// - Throws: keyset errors from `TinkAEAD`.
    public init(coupleKeyset: Keyset) throws(KindredCryptoError) {
        aead = try TinkAEAD(keyset: coupleKeyset)
    }

    /// Encrypts text for a field of this couple.
    /// - Parameters:
    ///   - text: the field's text (UTF-8).
    ///   - coupleId: the couple id, the associated data.
    /// - Returns: the `enc:v1:` string.
    /// - Throws: `.tooLong` beyond 65,536 characters, `TinkAEAD` errors.
    public func encrypt(_ text: String, coupleId: String) throws(KindredCryptoError) -> String {
        try encrypt(bytes: Array(text.utf8), associatedData: Array(coupleId.utf8))
    }

    /// Encrypts bytes for a field of this couple.
    /// - Parameters:
    ///   - bytes: the plaintext.
    ///   - coupleId: the couple id, the associated data.
    /// - Returns: the `enc:v1:` string.
    /// - Throws: `.tooLong` beyond 65,536 characters, `TinkAEAD` errors.
    public func encrypt(bytes: [UInt8], coupleId: String) throws(KindredCryptoError) -> String {
        try encrypt(bytes: bytes, associatedData: Array(coupleId.utf8))
    }

    /// Decrypts an `enc:v1:` field to bytes.
    /// - Parameters:
    ///   - ciphertext: the `enc:v1:` string.
    ///   - coupleId: the couple id it was encrypted for.
    /// - Returns: the plaintext.
    /// - Throws: `.wrongPrefix`, `.tooLong`, `.truncated`, `.malformed` for a bad string;
    ///   `.authenticationFailed` / `.noMatchingKey` for a wrong key, couple id or modification.
    public func decrypt(_ ciphertext: String, coupleId: String) throws(KindredCryptoError) -> [UInt8] {
        try decrypt(ciphertext, associatedData: Array(coupleId.utf8))
    }

    /// Decrypts an `enc:v1:` field to text.
    /// - Parameters:
    ///   - ciphertext: the `enc:v1:` string.
    ///   - coupleId: the couple id it was encrypted for.
    /// - Returns: the plaintext as a String.
    /// - Throws: as `decrypt(_:coupleId:)`, and `.malformed` when the plaintext is not UTF-8.
    public func decryptText(_ ciphertext: String, coupleId: String) throws(KindredCryptoError) -> String {
        let bytes = try decrypt(ciphertext, coupleId: coupleId)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .malformed(format: Self.format, reason: "plaintext is not UTF-8") }
        return text
    }

    /// Encrypts with explicit associated data (the commitment seal uses `coupleId|questionId|userId`)
    /// and, for known-answer tests only, a fixed IV.
    func encrypt(bytes: [UInt8], associatedData: [UInt8], iv: [UInt8]? = nil) throws(KindredCryptoError) -> String {
        let raw: [UInt8]
        if let iv {
            guard iv.count == CloserAESGCM.ivLength else { throw .invalidParameters("AES-GCM IV must be \(CloserAESGCM.ivLength) bytes") }
            raw = try aead.encrypt(bytes, associatedData: associatedData, iv: iv)
        } else {
            raw = try aead.encrypt(bytes, associatedData: associatedData)
        }
        let wire = CloserWireFormat.Format.ciphertext.prefix + Base64.encode(raw, alphabet: .standard)
        let limit = CloserWireFormat.Format.ciphertext.maximumLength
        guard wire.utf8.count <= limit else { throw .tooLong(format: Self.format, limit: limit) }
        return wire
    }

    /// Decrypts with explicit associated data.
    func decrypt(_ ciphertext: String, associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        let raw = try CloserWireFormat.decodeBody(ciphertext, as: .ciphertext)
        return try aead.decrypt(raw, associatedData: associatedData)
    }
}
