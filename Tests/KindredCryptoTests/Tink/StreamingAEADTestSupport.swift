@testable import KindredCrypto

/// Helpers shared by the streaming AEAD suites.
enum StreamingFixtures {
    /// Ciphertext segment size of the small test keysets (Tink accepts any size > 56 for AES-256).
    static let smallSegment = 256
    /// First-segment plaintext size of AES256_GCM_HKDF_1MB: 1 MiB − 16 (tag) − 40 (header).
    static let firstPlaintext1MB = (1 << 20) - 56
    /// Plaintext size of every later 1 MiB segment.
    static let plaintext1MB = (1 << 20) - 16

    /// The vectors' plaintext pattern: byte i is i mod 251.
    static func pattern(_ count: Int, offset: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 + offset) % 251) }
    }

    /// A one-key AES-256 keyset with small segments, so that multi-segment streams stay small.
    static func smallKeyset(segment: Int = smallSegment) -> Keyset {
        Keyset.generateAesGcmHkdfStreaming(.init(ciphertextSegmentSize: segment, derivedKeySize: 32, hkdfHashType: .sha256), keySize: 32)
    }

    /// The only key of a one-key keyset.
    static func key(of keyset: Keyset) throws -> AesGcmHkdfStreamingKey {
        try AesGcmHkdfStreamingKey(serialized: keyset.keys[0].keyData.value)
    }

    /// Splits `bytes` into chunks whose sizes cycle through `sizes` (0 means "the rest").
    static func chunks(_ bytes: [UInt8], sizes: [Int]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var index = 0
        var k = 0
        while index < bytes.count {
            let size = sizes[k % sizes.count] == 0 ? bytes.count - index : min(sizes[k % sizes.count], bytes.count - index)
            out.append(Array(bytes[index..<index + size]))
            index += size
            k += 1
        }
        return out
    }

    /// Encrypts `plaintext` fed in chunks.
    static func encrypt(_ encrypter: StreamingEncrypter, _ plaintext: [UInt8], sizes: [Int]) throws -> [UInt8] {
        var encrypter = encrypter
        var out: [UInt8] = []
        for chunk in chunks(plaintext, sizes: sizes) { out += try encrypter.update(chunk) }
        return out + (try encrypter.finish())
    }

    /// Decrypts `ciphertext` fed in chunks.
    static func decrypt(_ decrypter: StreamingDecrypter, _ ciphertext: [UInt8], sizes: [Int]) throws(KindredCryptoError) -> [UInt8] {
        var decrypter = decrypter
        var out: [UInt8] = []
        for chunk in chunks(ciphertext, sizes: sizes) { out += try decrypter.update(chunk) }
        return out + (try decrypter.finish())
    }
}
