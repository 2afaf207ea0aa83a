import Crypto
import Foundation
import Testing
@testable import KindredCrypto

/// 200 MB through encrypter → decrypter in 64 KiB chunks, never holding more than a segment:
/// the plaintext is generated chunk by chunk and compared by SHA-256.
@Suite struct StreamingAEADLargeStreamTests {
    static let totalBytes = 200_000_000
    static let chunkSize = 1 << 16

    @Test func twoHundredMegabytesRoundTripInBoundedChunks() throws {
        let aead = try TinkStreamingAEAD(keyset: .generateAES256GCMHKDF1MB())
        let aad = Array("eraser:vault:video".utf8)
        var encrypter = try aead.makeEncrypter(associatedData: aad)
        var decrypter = try aead.makeDecrypter(associatedData: aad)
        var rng = SeededGenerator(seed: 200)
        var block = rng.bytes(Self.chunkSize)
        var inputHash = SHA256()
        var outputHash = SHA256()
        var produced = 0
        var ciphertextBytes = 0
        var largestRelease = 0
        var chunkIndex: UInt64 = 0
        while produced < Self.totalBytes {
            // Deterministic, distinct chunks: the random block with the chunk number in its first 8 bytes.
            withUnsafeBytes(of: chunkIndex.littleEndian) { block.replaceSubrange(0..<8, with: $0) }
            let count = min(Self.chunkSize, Self.totalBytes - produced)
            let chunk = count == block.count ? block : Array(block[..<count])
            inputHash.update(data: chunk)
            let ciphertext = try encrypter.update(chunk)
            ciphertextBytes += ciphertext.count
            let plaintext = try decrypter.update(ciphertext)
            largestRelease = max(largestRelease, plaintext.count)
            outputHash.update(data: plaintext)
            produced += count
            chunkIndex += 1
        }
        let tail = try encrypter.finish()
        ciphertextBytes += tail.count
        outputHash.update(data: try decrypter.update(tail))
        outputHash.update(data: try decrypter.finish())
        #expect(Array(outputHash.finalize()) == Array(inputHash.finalize()))
        #expect(ciphertextBytes == StreamingAEADTests.expectedCiphertextSize(Self.totalBytes, segment: 1 << 20))
        // Memory stays O(segment): no single call ever releases more than one segment of plaintext.
        #expect(largestRelease <= StreamingFixtures.plaintext1MB)
    }
}
