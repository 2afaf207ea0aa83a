import Testing
@testable import KindredCrypto

/// The scalar G (used in debug builds) and the SIMD G (used in release builds) must agree.
@Suite struct Argon2CompressionTests {
    /// Four blocks plus scratch, filled with seeded random words.
    private struct Blocks: ~Copyable {
        let words: UnsafeMutablePointer<UInt64>
        init(count: Int, rng: inout SeededGenerator) {
            words = .allocate(capacity: count * 128)
            for i in 0..<(count * 128) { words[i] = rng.next() }
        }
        func block(_ i: Int) -> UnsafeMutablePointer<UInt64> { words + i * 128 }
        func bytes(_ i: Int) -> [UInt64] { Array(UnsafeBufferPointer(start: block(i), count: 128)) }
        deinit { words.deallocate() }
    }

    @Test(arguments: [false, true])
    func simdMatchesScalar(xorIntoNext: Bool) {
        var rng = SeededGenerator(seed: xorIntoNext ? 11 : 12)
        for _ in 0..<50 {
            // Blocks: 0 prev, 1 ref, 2 next (scalar), 3 next (SIMD), 4 scratch.
            let b = Blocks(count: 5, rng: &rng)
            b.block(3).update(from: b.block(2), count: 128)
            Argon2Compression.compressScalar(prev: b.block(0), ref: b.block(1), next: b.block(2), xorIntoNext: xorIntoNext, scratch: b.block(4))
            Argon2Compression.compressPairs(prev: b.block(0), ref: b.block(1), next: b.block(3), xorIntoNext: xorIntoNext, scratch: b.block(4))
            #expect(b.bytes(2) == b.bytes(3))
        }
    }

    @Test func bothHandleNextAliasingRef() {
        // The address generator computes G(zero, address) into address itself.
        var rng = SeededGenerator(seed: 13)
        let b = Blocks(count: 5, rng: &rng)
        b.block(0).update(repeating: 0, count: 128)
        b.block(2).update(from: b.block(1), count: 128)
        let expected = Blocks(count: 2, rng: &rng)
        Argon2Compression.compressScalar(prev: b.block(0), ref: b.block(1), next: expected.block(0), xorIntoNext: false, scratch: b.block(4))
        Argon2Compression.compressScalar(prev: b.block(0), ref: b.block(1), next: b.block(1), xorIntoNext: false, scratch: b.block(4))
        Argon2Compression.compressPairs(prev: b.block(0), ref: b.block(2), next: b.block(2), xorIntoNext: false, scratch: b.block(4))
        #expect(b.bytes(1) == expected.bytes(0))
        #expect(b.bytes(2) == expected.bytes(0))
    }

    @Test func zeroInputGivesZeroOutput() {
        // P(0) = 0, so G(0, 0) = 0 — a sanity check that the XOR wiring adds nothing.
        var rng = SeededGenerator(seed: 14)
        let b = Blocks(count: 4, rng: &rng)
        b.block(0).update(repeating: 0, count: 256)
        Argon2Compression.compress(prev: b.block(0), ref: b.block(1), next: b.block(2), xorIntoNext: false, scratch: b.block(3))
        #expect(b.bytes(2) == [UInt64](repeating: 0, count: 128))
    }
}
