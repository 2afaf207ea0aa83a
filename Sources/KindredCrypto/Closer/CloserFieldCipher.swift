/// `enc:v1:` — Closer's field encryption under the couple key: `"enc:v1:" + Base64(Tink AEAD
/// ciphertext)` (standard alphabet, padded). The Tink ciphertext is `0x01 ‖ key id (4) ‖ IV (12)
/// ‖ AES-256-GCM ciphertext ‖ tag (16)` for a TINK-prefixed key; the associated data is the
/// UTF-8 `coupleId`. Spec: `docs/wire-formats.md`, "enc:v1".
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
    /// and optionally a given IV (known-answer tests, and callers that drew it with other random bytes).
    func encrypt(bytes: [UInt8], associatedData: [UInt8], iv: [UInt8]? = nil) throws(KindredCryptoError) -> String {
        if let iv, iv.count != CloserAESGCM.ivLength { throw .invalidParameters("AES-GCM IV must be \(CloserAESGCM.ivLength) bytes") }
        let iv = iv ?? SecureRandom.bytes(CloserAESGCM.ivLength)
        return try bytes.withBytes { (plaintext) throws(KindredCryptoError) in
            try encrypt(plaintext, associatedData: associatedData, iv: iv[...])
        }
    }

    /// Encrypts a String's UTF-8 (the commitment seal) with a 12-byte IV the caller drew.
    func encrypt(utf8 text: String, associatedData: [UInt8], iv: ArraySlice<UInt8>) throws(KindredCryptoError) -> String {
        guard iv.count == CloserAESGCM.ivLength else { throw .invalidParameters("AES-GCM IV must be \(CloserAESGCM.ivLength) bytes") }
        return try text.withUTF8Bytes { (utf8) throws(KindredCryptoError) in
            try encrypt(utf8, associatedData: associatedData, iv: iv)
        }
    }

    private func encrypt(_ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8], iv: ArraySlice<UInt8>) throws(KindredCryptoError) -> String {
        let raw = try aead.encrypt(plaintext, associatedData: associatedData, iv: iv)
        let wireFormat = CloserWireFormat.Format.ciphertext
        let limit = wireFormat.maximumLength
        guard wireFormat.prefix.utf8.count + Base64.encodedLength(raw.count, alphabet: .standard) <= limit else {
            throw .tooLong(format: Self.format, limit: limit)
        }
        return Base64.encode(raw, alphabet: .standard, prefix: wireFormat.prefix)
    }

    /// Decrypts with explicit associated data.
    func decrypt(_ ciphertext: String, associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        let raw = try CloserWireFormat.decodeBody(ciphertext, as: .ciphertext)
        return try aead.decrypt(raw, associatedData: associatedData)
    }
}
