import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The geometry of one AES-GCM-HKDF streaming key: header length and segment sizes.
///
/// A ciphertext is `header ‖ segment₀ ‖ … ‖ segmentₙ`; the header is
/// `header length (1 byte) ‖ salt (derived-key-size bytes) ‖ nonce prefix (7 bytes)`. Every
/// segment but the last is `ciphertextSegmentSize` bytes, except segment₀, which is shorter by
/// the header length (Tink's ciphertext offset; its first-segment offset is always 0).
/// Spec: `docs/wire-formats.md`, "Streaming AEAD (AES256_GCM_HKDF_1MB)", "Ciphertext".
struct StreamingGeometry: Equatable, Sendable {
    /// The AES-GCM tag size.
    static let tagSize = 16
    /// The nonce prefix size (a segment nonce is prefix ‖ uint32 segment number ‖ last flag).
    static let noncePrefixSize = 7

    /// Size of every full ciphertext segment (tag included).
    let ciphertextSegmentSize: Int
    /// Size of the derived AES key, which is also the salt size.
    let saltSize: Int

    /// `1 + salt size + 7`: 40 for AES256_GCM_HKDF_1MB.
    var headerLength: Int { 1 + saltSize + Self.noncePrefixSize }
    /// Plaintext bytes in every full segment but the first.
    var plaintextSegmentSize: Int { ciphertextSegmentSize - Self.tagSize }
    /// Plaintext bytes in a full first segment.
    var firstPlaintextSegmentSize: Int { plaintextSegmentSize - headerLength }
    /// Ciphertext bytes in a full first segment.
    var firstCiphertextSegmentSize: Int { ciphertextSegmentSize - headerLength }

    /// The geometry of a validated key.
    init(_ parameters: AesGcmHkdfStreamingKey.Parameters) {
        ciphertextSegmentSize = parameters.ciphertextSegmentSize
        saltSize = parameters.derivedKeySize
    }
}

/// One stream's AES-GCM key (derived by HKDF from the key value, the header salt and the
/// associated data) and nonce prefix: seals and opens individual segments.
/// Spec: `docs/wire-formats.md`, "Streaming AEAD (AES256_GCM_HKDF_1MB)", "Key derivation" and "Segments".
struct StreamingSegmentCipher: Sendable {
    private let key: SymmetricKey
    private let noncePrefix: [UInt8]

    /// The largest segment number: segment numbers are 32-bit in the nonce.
    static let maximumSegmentNumber = UInt64(UInt32.max)

    /// Derives the stream key `HKDF(hash, ikm = key value, salt, info = associated data)`.
    /// - Parameters:
    ///   - key: a validated `AesGcmHkdfStreamingKey`.
    ///   - salt: the header salt (derived-key-size bytes).
    ///   - noncePrefix: the header's 7-byte nonce prefix.
    ///   - associatedData: the stream's associated data.
    init(key: AesGcmHkdfStreamingKey, salt: ArraySlice<UInt8>, noncePrefix: ArraySlice<UInt8>, associatedData: [UInt8]) {
        let ikm = SymmetricKey(data: key.keyValue)
        let size = key.parameters.derivedKeySize
        switch key.parameters.hkdfHashType {
        case .sha1:
            self.key = HKDF<Insecure.SHA1>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: associatedData, outputByteCount: size)
        case .sha256:
            self.key = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: associatedData, outputByteCount: size)
        case .sha512:
            self.key = HKDF<SHA512>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: associatedData, outputByteCount: size)
        }
        self.noncePrefix = Array(noncePrefix)
    }

    /// `nonce prefix ‖ segment number (uint32 big-endian) ‖ 0x01 if last else 0x00`.
    private func nonce(segment: UInt64, last: Bool) -> AES.GCM.Nonce {
        let n = UInt32(truncatingIfNeeded: segment)
        let bytes = noncePrefix + [UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16),
                                   UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n), last ? 1 : 0]
        // A 12-byte nonce is always accepted by AES.GCM.Nonce.
        return try! AES.GCM.Nonce(data: bytes)
    }

    /// Encrypts one segment (no AES-GCM associated data: it went into the key).
    /// - Parameters:
    ///   - plaintext: the segment's plaintext.
    ///   - segment: its number, at most `maximumSegmentNumber`.
    ///   - last: whether it is the final segment.
    ///   - output: receives `ciphertext ‖ tag`.
    func seal(_ plaintext: ArraySlice<UInt8>, segment: UInt64, last: Bool, into output: inout [UInt8]) {
        // Sealing with a valid key and nonce cannot fail.
        let box = try! AES.GCM.seal(plaintext, using: key, nonce: nonce(segment: segment, last: last))
        Self.reserve(plaintext.count + StreamingGeometry.tagSize, in: &output)
        output.append(contentsOf: box.ciphertext)
        output.append(contentsOf: box.tag)
    }

    /// Decrypts and authenticates one segment.
    /// - Parameters:
    ///   - ciphertext: `ciphertext ‖ tag` of the segment.
    ///   - segment: its expected number.
    ///   - last: whether it is expected to be the final segment.
    ///   - output: receives the plaintext when the segment authenticates.
    /// - Returns: `false` when it does not (too short, modified, wrong position or wrong key).
    func open(_ ciphertext: ArraySlice<UInt8>, segment: UInt64, last: Bool, into output: inout [UInt8]) -> Bool {
        guard ciphertext.count >= StreamingGeometry.tagSize else { return false }
        let split = ciphertext.endIndex - StreamingGeometry.tagSize
        do {
            let box = try AES.GCM.SealedBox(nonce: nonce(segment: segment, last: last),
                                            ciphertext: ciphertext[..<split], tag: ciphertext[split...])
            let plaintext = try AES.GCM.open(box, using: key)
            Self.reserve(plaintext.count, in: &output)
            output.append(contentsOf: plaintext)
            return true
        } catch {
            return false
        }
    }

    /// Makes room for `count` more bytes in one allocation (growing geometrically), so that a
    /// segment and its tag never reallocate a megabyte-sized output twice.
    private static func reserve(_ count: Int, in output: inout [UInt8]) {
        guard output.capacity - output.count < count else { return }
        output.reserveCapacity(max(output.count + count, 2 * output.capacity))
    }
}
