import Crypto

/// Raw AES-256-GCM in the layout every Closer blob outside Tink uses: `IV (12) ‖ ciphertext ‖
/// tag (16)`. Used by `sealed:v1:`, the couple-key wrap and the invite transport.
/// Spec: `docs/wire-formats/closer.md`, "Raw AES-256-GCM blobs".
enum CloserAESGCM {
    /// IV length in bytes.
    static let ivLength = 12
    /// Tag length in bytes.
    static let tagLength = 16
    /// Key length in bytes.
    static let keyLength = 32

    /// Encrypts with a fresh random IV (or `iv`, for known-answer tests).
    /// - Parameters:
    ///   - plaintext: the bytes to protect.
    ///   - key: 32 bytes.
    ///   - associatedData: bytes authenticated but not encrypted.
    ///   - iv: a fixed 12-byte IV; `nil` draws a random one.
    /// - Returns: `IV ‖ ciphertext ‖ tag`.
    /// - Throws: `KindredCryptoError.invalidKeySize` for a key that is not 32 bytes.
    static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8], iv: [UInt8]? = nil) throws(KindredCryptoError) -> [UInt8] {
        guard key.count == keyLength else { throw .invalidKeySize(expected: keyLength, actual: key.count) }
        let ivBytes = iv ?? randomBytes(ivLength)
        guard ivBytes.count == ivLength else { throw .invalidParameters("AES-GCM IV must be \(ivLength) bytes") }
        do {
            let nonce = try AES.GCM.Nonce(data: ivBytes)
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: nonce, authenticating: associatedData)
            return ivBytes + Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .invalidParameters("AES-GCM refused its input")
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
        guard key.count == keyLength else { throw .invalidKeySize(expected: keyLength, actual: key.count) }
        guard blob.count >= ivLength + tagLength else { throw .truncated(format: format) }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: blob[0..<ivLength]),
                ciphertext: blob[ivLength..<(blob.count - tagLength)],
                tag: blob[(blob.count - tagLength)...]
            )
            return Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: associatedData))
        } catch {
            throw .authenticationFailed
        }
    }

    /// `count` bytes from the system CSPRNG.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }
}
