import Testing
@testable import KindredCrypto

@Suite struct Argon2idParametersTests {
    private func parameters(m: UInt32 = 64, t: UInt32 = 1, p: UInt32 = 1, length: Int = 32) -> Argon2id.Parameters {
        Argon2id.Parameters(memoryKiB: m, iterations: t, parallelism: p, outputLength: length)
    }

    @Test func acceptsTheRFCLimits() throws {
        try parameters(m: 8, t: 1, p: 1, length: 4).validate()
        try parameters(m: UInt32.max, t: UInt32.max, p: (1 << 24) - 1, length: Int(UInt32.max)).validate()
        try Argon2id.Parameters.closer.validate()
        try Argon2id.Parameters.password.validate()
    }

    @Test func refusesEachLimitWithATypedError() {
        let cases: [(Argon2id.Parameters, String)] = [
            (parameters(p: 0), "Argon2id parallelism must be 1...16777215, got 0"),
            (parameters(m: UInt32.max, p: 1 << 24), "Argon2id parallelism must be 1...16777215, got 16777216"),
            (parameters(m: 15, p: 2), "Argon2id memory must be at least 8·p = 16 KiB, got 15"),
            (parameters(m: 7), "Argon2id memory must be at least 8·p = 8 KiB, got 7"),
            (parameters(t: 0), "Argon2id iterations must be at least 1"),
            (parameters(length: 3), "Argon2id output length must be 4...4294967295 bytes, got 3"),
            (parameters(length: -1), "Argon2id output length must be 4...4294967295 bytes, got -1"),
            (parameters(length: Int(UInt32.max) + 1), "Argon2id output length must be 4...4294967295 bytes, got 4294967296"),
        ]
        for (bad, reason) in cases {
            #expect(throws: KindredCryptoError.invalidParameters(reason)) { try bad.validate() }
        }
    }

    @Test func boundsRefuseCostsAboveThem() throws {
        let bounds = Argon2id.Bounds.default
        #expect(bounds == Argon2id.Bounds(maxMemoryKiB: 262_144, maxIterations: 10, maxParallelism: 8, maxSaltLength: 64, maxOutputLength: 64))
        try bounds.check(parameters(m: 262_144, t: 10, p: 8, length: 64))
        try bounds.check(.closer)
        let cases: [(Argon2id.Parameters, String)] = [
            (parameters(m: 262_145), "Argon2id m=262145 KiB exceeds 262144 KiB"),
            (parameters(t: 11), "Argon2id t=11 exceeds 10"),
            (parameters(p: 9), "Argon2id p=9 exceeds 8"),
            (parameters(length: 65), "Argon2id tag of 65 bytes exceeds 64"),
        ]
        for (bad, reason) in cases {
            #expect(throws: KindredCryptoError.parametersOutOfBounds(reason)) { try bounds.check(bad) }
        }
    }
}
