import Crypto

/// AES-GCM with a 12-byte IV and a 16-byte tag, laid out as Tink writes it: `IV ‖ ciphertext ‖ tag`.
/// Used by `TinkAEAD`, the ECIES DEM and Closer's raw AES-256-GCM blobs.
/// Spec: `docs/wire-formats.md`, "AES-GCM".
///
/// Speed: each swift-crypto call costs about a microsecond of fixed overhead (key schedule,
/// `Data` buffers), far more than the cipher itself for small messages. So the `SymmetricKey`
/// variants take a key made once (primitives cache it), the output is copied once out of
/// swift-crypto's combined `nonce ‖ ciphertext ‖ tag` buffer (behind an optional prefix), and
/// opening hands swift-crypto the whole blob as one buffer.
enum AesGcmCipher {
    /// The IV length Tink uses for AES-GCM.
    static let ivSize = 12
    /// The tag length Tink uses for AES-GCM.
    static let tagSize = 16

    /// Whether `count` is a key length Tink accepts for AES-GCM (AES-128 or AES-256).
    static func isValidKeySize(_ count: Int) -> Bool { count == 16 || count == 32 }

    /// Makes the swift-crypto key for raw key bytes.
    /// - Parameter bytes: a 16- or 32-byte AES key.
    /// - Returns: the key.
    /// - Throws: `.invalidKeySize` for any other length.
    static func key(_ bytes: [UInt8]) throws(KindredCryptoError) -> SymmetricKey {
        guard isValidKeySize(bytes.count) else { throw .invalidKeySize(expected: 32, actual: bytes.count) }
        return SymmetricKey(data: bytes)
    }

    /// Encrypts with an explicit IV.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - key: a 16- or 32-byte AES key.
    ///   - iv: 12 bytes, never reused with the same key.
    ///   - associatedData: authenticated, not encrypted.
    /// - Returns: `iv ‖ ciphertext ‖ tag`.
    /// - Throws: `.invalidKeySize` for a key that is not 16 or 32 bytes, `.invalidParameters` for an IV that is not 12 bytes.
    static func seal(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        let key = try Self.key(key)
        guard iv.count == ivSize else { throw .invalidParameters("AES-GCM IV must be \(ivSize) bytes, got \(iv.count)") }
        return try plaintext.withBytes { (message) throws(KindredCryptoError) in
            try seal(message, key: key, iv: iv[...], associatedData: associatedData)
        }
    }

    /// Encrypts with a fresh random IV.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - key: a 16- or 32-byte AES key.
    ///   - associatedData: authenticated, not encrypted.
    /// - Returns: `iv ‖ ciphertext ‖ tag`.
    /// - Throws: `.invalidKeySize` for a key that is not 16 or 32 bytes.
    static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        try seal(plaintext, key: key, iv: SecureRandom.bytes(ivSize), associatedData: associatedData)
    }

    /// Encrypts under a prepared key and writes `prefix ‖ iv ‖ ciphertext ‖ tag` in one buffer.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - key: a 128- or 256-bit key (checked when it was made).
    ///   - iv: exactly 12 bytes (checked by the caller), never reused with the same key.
    ///   - associatedData: authenticated, not encrypted.
    ///   - prefix: bytes to put in front (a Tink output prefix), usually empty.
    /// - Returns: `prefix ‖ iv ‖ ciphertext ‖ tag`.
    /// - Throws: `.invalidParameters` if swift-crypto refuses the key or IV (their sizes are
    ///   checked before, so this does not happen).
    static func seal(_ plaintext: UnsafeRawBufferPointer, key: SymmetricKey, iv: ArraySlice<UInt8>, associatedData: [UInt8],
                     prefix: [UInt8] = []) throws(KindredCryptoError) -> [UInt8] {
        try seal(plaintext, key: key, iv: iv, associatedData: associatedData) { sealed in
            [UInt8](unsafeUninitializedCapacity: prefix.count + sealed.count) { buffer, initialized in
                for i in 0..<prefix.count { buffer[i] = prefix[i] }
                UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[prefix.count...])).copyMemory(from: sealed)
                initialized = prefix.count + sealed.count
            }
        }
    }

    /// Encrypts under a prepared key and lends `iv ‖ ciphertext ‖ tag` to `body` without copying it.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - key: a 128- or 256-bit key.
    ///   - iv: exactly 12 bytes (checked by the caller).
    ///   - associatedData: authenticated, not encrypted.
    ///   - body: receives the sealed bytes (valid only during the call).
    /// - Returns: what `body` returns.
    /// - Throws: `.invalidParameters` if swift-crypto refuses the key or IV (checked before).
    static func seal<R>(_ plaintext: UnsafeRawBufferPointer, key: SymmetricKey, iv: ArraySlice<UInt8>, associatedData: [UInt8],
                        _ body: (UnsafeRawBufferPointer) -> R) throws(KindredCryptoError) -> R {
        // `combined` is `nonce ‖ ciphertext ‖ tag`; it is only absent for non-12-byte nonces.
        let combined = try? AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: iv), authenticating: associatedData).combined
        guard let sealed = combined ?? nil else { throw .invalidParameters("AES-GCM encryption failed") }
        return sealed.withUnsafeBytes(body)
    }

    /// Decrypts `iv ‖ ciphertext ‖ tag`.
    /// - Parameters:
    ///   - box: the IV, ciphertext and tag.
    ///   - key: a 16- or 32-byte AES key.
    ///   - associatedData: the data given at encryption.
    ///   - format: the wire format's name, used in errors.
    /// - Returns: the plaintext.
    /// - Throws: `.truncated` when shorter than IV + tag, `.authenticationFailed` when the tag
    ///   does not verify, `.invalidKeySize` for a bad key length.
    static func open(_ box: ArraySlice<UInt8>, key: [UInt8], associatedData: [UInt8], format: String) throws(KindredCryptoError) -> [UInt8] {
        try open(box, key: Self.key(key), associatedData: associatedData, format: format)
    }

    /// Decrypts `iv ‖ ciphertext ‖ tag` under a prepared key.
    /// - Parameters:
    ///   - box: the IV, ciphertext and tag.
    ///   - key: a 128- or 256-bit key.
    ///   - associatedData: the data given at encryption.
    ///   - format: the wire format's name, used in errors.
    /// - Returns: the plaintext.
    /// - Throws: `.truncated` when shorter than IV + tag, `.authenticationFailed` when the tag does not verify.
    static func open(_ box: ArraySlice<UInt8>, key: SymmetricKey, associatedData: [UInt8], format: String) throws(KindredCryptoError) -> [UInt8] {
        try box.withBytes { (combined) throws(KindredCryptoError) in
            try open(combined, key: key, associatedData: associatedData, format: format) { plaintext in Array(plaintext) }
        }
    }

    /// Decrypts `iv ‖ ciphertext ‖ tag` under a prepared key and lends the plaintext to `body`
    /// without copying it.
    /// - Parameters:
    ///   - box: the IV, ciphertext and tag.
    ///   - key: a 128- or 256-bit key.
    ///   - associatedData: the data given at encryption.
    ///   - format: the wire format's name, used in errors.
    ///   - body: receives the plaintext (valid only during the call).
    /// - Returns: what `body` returns.
    /// - Throws: `.truncated` when shorter than IV + tag, `.authenticationFailed` when the tag
    ///   does not verify, or what `body` throws.
    static func open<R>(_ box: UnsafeRawBufferPointer, key: SymmetricKey, associatedData: [UInt8], format: String,
                        _ body: (UnsafeRawBufferPointer) throws(KindredCryptoError) -> R) throws(KindredCryptoError) -> R {
        guard box.count >= ivSize + tagSize else { throw .truncated(format: format) }
        // One contiguous buffer: swift-crypto reads nonce, ciphertext and tag from it as `combined`.
        let opened = try? AES.GCM.open(AES.GCM.SealedBox(combined: box), using: key, authenticating: associatedData)
        guard let plaintext = opened else { throw .authenticationFailed }
        return try plaintext.withUnsafeBytes { opened in Result { () throws(KindredCryptoError) in try body(opened) } }.get()
    }
}
