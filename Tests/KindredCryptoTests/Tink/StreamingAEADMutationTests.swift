import Testing
@testable import KindredCrypto

/// Random corruptions of valid streams never crash and never decrypt: the decrypter throws a
/// typed error, and whatever it released before failing is a true prefix of the plaintext
/// (only authenticated segments are released).
@Suite struct StreamingAEADMutationTests {
    typealias F = StreamingFixtures

    /// Decrypts `bytes` in chunks; returns the released plaintext and the error, if any.
    static func attempt(_ aead: TinkStreamingAEAD, _ bytes: [UInt8], chunk: Int) -> ([UInt8], KindredCryptoError?) {
        var released: [UInt8] = []
        do throws(KindredCryptoError) {
            var decrypter = try aead.makeDecrypter(associatedData: [])
            for part in F.chunks(bytes, sizes: [chunk]) { released += try decrypter.update(part) }
            released += try decrypter.finish()
            return (released, nil)
        } catch {
            return (released, error)
        }
    }

    static func run(_ aead: TinkStreamingAEAD, plaintext: [UInt8], ciphertext: [UInt8], count: Int, seed: UInt64, chunks: [Int]) {
        var rng = SeededGenerator(seed: seed)
        var failures = 0
        for i in 0..<count {
            let mutated = Mutator.mutate(ciphertext, using: &rng)
            let chunk = chunks[i % chunks.count] == 0 ? mutated.count + 1 : chunks[i % chunks.count]
            let (released, error) = attempt(aead, mutated, chunk: chunk)
            if error == nil || !plaintext.starts(with: released) {
                failures += 1
                Issue.record("seed \(seed), mutation \(i): error \(String(describing: error)), released \(released.count) bytes")
                if failures > 5 { return }
            }
        }
    }

    @Test func tenThousandMutationsOfASmallSegmentStream() throws {
        let aead = try TinkStreamingAEAD(keyset: F.smallKeyset())
        let plaintext = F.pattern(700)
        let ciphertext = try aead.encrypt(plaintext, associatedData: [])
        #expect(ciphertext.count == 40 + 216 + 256 + 256 + 36)
        Self.run(aead, plaintext: plaintext, ciphertext: ciphertext, count: 10_000, seed: 0x5157_2EA3, chunks: [0, 1, 97, 4096])
    }

    @Test func mutationsOfAOneMebibyteSegmentStream() throws {
        let aead = try TinkStreamingAEAD(keyset: .generateAES256GCMHKDF1MB())
        let plaintext = F.pattern(F.firstPlaintext1MB + 300)
        let ciphertext = try aead.encrypt(plaintext, associatedData: [])
        Self.run(aead, plaintext: plaintext, ciphertext: ciphertext, count: 60, seed: 0x1A1B, chunks: [0, 65536, 7919])
    }
}
