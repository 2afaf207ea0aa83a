import Crypto

/// Raw AES-256-GCM in the layout every Closer blob outside Tink uses: `IV (12) ‖ ciphertext ‖
/// tag (16)` — Tink's own AES-GCM layout (`AesGcmCipher`) restricted to 32-byte keys. Used by
/// `sealed:v1:`, the couple-key wrap and the invite transport.
/// Spec: `docs/wire-formats.md`, "Raw AES-256-GCM blobs".
enum CloserAESGCM {
    /// IV length in bytes.
    static let ivLength = AesGcmCipher.ivSize
    /// Tag length in bytes.
    static let tagLength = AesGcmCipher.tagSize
    /// Key length in bytes.
    static let keyLength = 32

    /// Encrypts with a fresh random IV (or `iv`, for known-answer tests).
    /// - Parameters:
    ///   - plaintext: the bytes to protect.
    ///   - key: 32 bytes.
    ///   - associatedData: bytes authenticated but not encrypted.
    ///   - iv: a fixed 12-byte IV; `nil` draws a random one.
    /// - Returns: `IV ‖ ciphertext ‖ tag`.
    /// - Throws: `.invalidKeySize` for a key that is not 32 bytes, `.invalidParameters` for an IV
    ///   that is not 12 bytes.
    static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8], iv: [UInt8]? = nil) throws(KindredCryptoError) -> [UInt8] {
        guard key.count == keyLength else { throw .invalidKeySize(expected: keyLength, actual: key.count) }
        guard let iv else { return try AesGcmCipher.seal(plaintext, key: key, associatedData: associatedData) }
        guard iv.count == ivLength else { throw .invalidParameters("AES-GCM IV must be \(ivLength) bytes") }
        return try AesGcmCipher.seal(plaintext, key: key, iv: iv, associatedData: associatedData)
    }

    /// Encrypts with a given IV and lends `IV ‖ ciphertext ‖ tag` to `body` without copying it.
    /// - Parameters:
    ///   - plaintext: the bytes to protect.
    ///   - key: 32 bytes.
    ///   - associatedData: bytes authenticated but not encrypted.
    ///   - iv: 12 bytes.
    ///   - body: receives the sealed bytes (valid only during the call).
    /// - Returns: what `body` returns.
    /// - Throws: `.invalidKeySize` for a key that is not 32 bytes, `.invalidParameters` for an IV
    ///   that is not 12 bytes, or what `body` throws.
    static func seal<R>(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8], iv: ArraySlice<UInt8>,
                        _ body: (UnsafeRawBufferPointer) throws(KindredCryptoError) -> R) throws(KindredCryptoError) -> R {
        guard key.count == keyLength else { throw .invalidKeySize(expected: keyLength, actual: key.count) }
        guard iv.count == ivLength else { throw .invalidParameters("AES-GCM IV must be \(ivLength) bytes") }
        return try plaintext.withBytes { (message) throws(KindredCryptoError) in
            try AesGcmCipher.seal(message, key: SymmetricKey(data: key), iv: iv, associatedData: associatedData) { sealed in
                Result { () throws(KindredCryptoError) in try body(sealed) }
            }.get()
        }
    }

    /// Decrypts `IV ‖ ciphertext ‖ tag`.
    /// - Parameters:
    ///   - blob: the sealed bytes.
    ///   - key: 32 bytes.
    ///   - associatedData: the bytes authenticated at sealing.
    ///   - format: the wire format's name, used in errors.
    /// - Returns: the plaintext.
    /// - Throws: `.truncated` when shorter than IV + tag, `.invalidKeySize`, or `.authenticationFailed`.
    static func open(_ blob: [UInt8], key: [UInt8], associatedData: [UInt8], format: String) throws(KindredCryptoError) -> [UInt8] {
        try open(blob, key: key, associatedData: associatedData, format: format) { plaintext in Array(plaintext) }
    }

    /// Decrypts `IV ‖ ciphertext ‖ tag` and lends the plaintext to `body` without copying it.
    /// - Parameters:
    ///   - blob: the sealed bytes.
    ///   - key: 32 bytes.
    ///   - associatedData: the bytes authenticated at sealing.
    ///   - format: the wire format's name, used in errors.
    ///   - body: receives the plaintext (valid only during the call).
    /// - Returns: what `body` returns.
    /// - Throws: `.truncated` when shorter than IV + tag, `.invalidKeySize`, `.authenticationFailed`,
    ///   or what `body` throws.
    static func open<R>(_ blob: [UInt8], key: [UInt8], associatedData: [UInt8], format: String,
                        _ body: (UnsafeRawBufferPointer) throws(KindredCryptoError) -> R) throws(KindredCryptoError) -> R {
        guard key.count == keyLength else { throw .invalidKeySize(expected: keyLength, actual: key.count) }
        return try blob.withBytes { (box) throws(KindredCryptoError) in
            try AesGcmCipher.open(box, key: SymmetricKey(data: key), associatedData: associatedData, format: format, body)
        }
    }
}
