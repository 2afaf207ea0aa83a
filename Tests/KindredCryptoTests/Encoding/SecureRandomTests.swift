import Testing
@testable import KindredCrypto

@Suite struct SecureRandomTests {
    /// Every length is served in full, including across the 256-byte `getentropy` limit, and
    /// successive draws differ (2^-128 odds of a false failure for the 16-byte ones).
    @Test func fillsEveryLength() {
        for count in [0, 1, 7, 8, 9, 16, 32, 88, 255, 256, 257, 512, 1000] {
            let a = SecureRandom.bytes(count)
            let b = SecureRandom.bytes(count)
            #expect(a.count == count && b.count == count)
            if count >= 16 { #expect(a != b, "two draws of \(count) bytes were equal") }
        }
        // The last bytes of a multi-call draw are filled too (not left as zero): over 64 draws of
        // 257 bytes, the final byte is zero every time with probability 2^-512.
        #expect((0..<64).contains { _ in SecureRandom.bytes(257)[256] != 0 })
    }

    @Test func fillWritesTheWholeBuffer() {
        var buffer = [UInt8](repeating: 0, count: 600)
        var everWritten = [Bool](repeating: false, count: 600)
        for _ in 0..<32 {
            buffer.withUnsafeMutableBytes { SecureRandom.fill($0) }
            for i in buffer.indices where buffer[i] != 0 { everWritten[i] = true }
        }
        #expect(everWritten.allSatisfy { $0 })
    }
}
