import Crypto

/// AES-GCM with a 12-byte IV and a 16-byte tag, laid out as Tink writes it: `IV ‖ ciphertext ‖ tag`.
/// Used by `TinkAEAD` and by the ECIES DEM. Spec: `docs/wire-formats/tink.md`, "AES-GCM".
enum AesGcmCipher {
    /// The IV length Tink uses for AES-GCM.
    static let ivSize = 12
    /// The tag length Tink uses for AES-GCM.
    static let tagSize = 16

    /// Encrypts with an explicit IV.
    /// - Parameters:
    ///   - plaintext: the message.
    ///   - key: a 16- or 32-byte AES key.
    ///   - iv: 12 bytes, never reused with the same key.
    ///   - associatedData: authenticated, not encrypted.
    /// - Returns: `iv ‖ ciphertext ‖ tag`.
    /// - Throws: `.invalidKeySize` for a key that is not 16 or 32 bytes, `.invalidParameters` for an IV that is not 12 bytes.
    static func seal(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], associatedData: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        guard AesGcmKey.acceptedSizes.contains(key.count) else { throw .invalidKeySize(expected: 32, actual: key.count) }
        guard iv.count == ivSize else { throw .invalidParameters("AES-GCM IV must be \(ivSize) bytes, got \(iv.count)") }
        do {
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key),
                                       nonce: try AES.GCM.Nonce(data: iv), authenticating: associatedData)
            return iv + Array(box.ciphertext) + Array(box.tag)
        } catch {
            // swift-crypto only fails here for key or nonce sizes, which are checked above.
            throw .invalidParameters("AES-GCM encryption failed")
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
        let iv = SecureRandom.bytes(ivSize)
        return try seal(plaintext, key: key, iv: iv, associatedData: associatedData)
    }

    /// Decrypts `iv ‖ ciphertext ‖ tag`.
    /// - Parameters:
    ///   - box: the IV, ciphertext and tag.
    ///   - key: a 16- or 32-byte AES key.
    ///   - associatedData: the data given at encryption.
    /// - Returns: the plaintext.
    /// - Throws: `.truncated` when shorter than IV + tag, `.authenticationFailed` when the tag
    ///   does not verify, `.invalidKeySize` for a bad key length.
    static func open(_ box: ArraySlice<UInt8>, key: [UInt8], associatedData: [UInt8], format: String) throws(KindredCryptoError) -> [UInt8] {
        guard AesGcmKey.acceptedSizes.contains(key.count) else { throw .invalidKeySize(expected: 32, actual: key.count) }
        guard box.count >= ivSize + tagSize else { throw .truncated(format: format) }
        let ivEnd = box.startIndex + ivSize
        let tagStart = box.endIndex - tagSize
        do {
            let sealed = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: box[box.startIndex..<ivEnd]),
                                               ciphertext: box[ivEnd..<tagStart], tag: box[tagStart...])
            return Array(try AES.GCM.open(sealed, using: SymmetricKey(data: key), authenticating: associatedData))
        } catch {
            throw .authenticationFailed
        }
    }
}
