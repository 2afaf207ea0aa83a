import Testing
@testable import KindredCrypto

@Suite struct WrappedCoupleKeyTests {
    static let cheap = try! CloserKDFParameters(memoryKiB: 64, iterations: 2, parallelism: 1)
    static let tiny = try! CloserKDFParameters(memoryKiB: 8, iterations: 1, parallelism: 1)

    @Test func knownAnswer() throws {
        let vectors = try CloserVectors.load()
        let v = vectors.wrap
        let phrase = try RecoveryPhrase(parsing: v.phrase)
        #expect(phrase.indices == v.phraseIndices)
        let keyset = try vectors.coupleKeyset()
        #expect(Hex.encode(keyset.serialized()) == v.keyset)
        let parameters = try CloserKDFParameters(encoded: v.kdfParams)
        #expect(try parameters.derive(password: Array(v.phrase.utf8), salt: Base64.decode(v.kdfSalt, alphabet: .standard)) == Hex.decode(v.derivedKey))
        let wrapped = try WrappedCoupleKey.wrap(keyset, phrase: phrase, parameters: parameters,
                                                salt: Base64.decode(v.kdfSalt, alphabet: .standard), iv: Hex.decode(v.iv))
        #expect(wrapped == WrappedCoupleKey(wrappedCoupleKey: v.wrappedCoupleKey, kdfSalt: v.kdfSalt, kdfParams: v.kdfParams))
        #expect(try wrapped.unwrap(phrase: phrase) == keyset)
    }

    @Test func wrongPhraseAndBadFields() throws {
        let keyset = Keyset.generateAES256GCM()
        let phrase = RecoveryPhrase.generate()
        let wrapped = try WrappedCoupleKey.wrap(keyset, phrase: phrase, parameters: Self.cheap)
        #expect(try Base64.decode(wrapped.kdfSalt, alphabet: .standard).count == 16)
        #expect(try wrapped.unwrap(phrase: phrase) == keyset)
        var other = phrase.indices
        other[9] &+= 1
        #expect(throws: KindredCryptoError.wrongPhrase) { try wrapped.unwrap(phrase: RecoveryPhrase(indices: other)) }
        let badSalt = WrappedCoupleKey(wrappedCoupleKey: wrapped.wrappedCoupleKey, kdfSalt: "AAAA", kdfParams: wrapped.kdfParams)
        #expect(throws: KindredCryptoError.malformed(format: "kdfSalt", reason: "salt must be 16 bytes, got 3")) { try badSalt.unwrap(phrase: phrase) }
        let short = WrappedCoupleKey(wrappedCoupleKey: "AAAA", kdfSalt: wrapped.kdfSalt, kdfParams: wrapped.kdfParams)
        #expect(throws: KindredCryptoError.truncated(format: "wrappedCoupleKey")) { try short.unwrap(phrase: phrase) }
        let urlSafe = WrappedCoupleKey(wrappedCoupleKey: "-_-_", kdfSalt: wrapped.kdfSalt, kdfParams: wrapped.kdfParams)
        #expect(throws: KindredCryptoError.malformed(format: "wrappedCoupleKey", reason: "invalid character")) { try urlSafe.unwrap(phrase: phrase) }
    }

    /// One wrap and unwrap with Closer's production parameters (m = 46,080 KiB, t = 3, p = 1).
    @Test func productionParameters() throws {
        let keyset = Keyset.generateAES256GCM()
        let phrase = RecoveryPhrase.generate()
        let wrapped = try WrappedCoupleKey.wrap(keyset, phrase: phrase)
        #expect(wrapped.kdfParams == #"{"alg":"argon2id","len":32,"m":46080,"p":1,"t":3,"v":19}"#)
        #expect(try wrapped.unwrap(phrase: phrase) == keyset)
    }

    @Test func mutatedFieldsGiveTypedErrors() throws {
        let keyset = Keyset.generateAES256GCM()
        var rng = SeededGenerator(seed: 0x5752_4150)
        let phrase = RecoveryPhrase.generate(using: &rng)
        let wrapped = try WrappedCoupleKey.wrap(keyset, phrase: phrase, parameters: Self.tiny)
        // 10,000 mutations of each field.
        for i in 0..<30_000 {
            var fields = [wrapped.wrappedCoupleKey, wrapped.kdfSalt, wrapped.kdfParams]
            fields[i % 3] = Mutator.mutate(fields[i % 3], using: &rng)
            let mutated = WrappedCoupleKey(wrappedCoupleKey: fields[0], kdfSalt: fields[1], kdfParams: fields[2])
            do {
                let result = try mutated.unwrap(phrase: phrase)
                // Only a kdfParams spelling change (e.g. whitespace) can leave the key intact.
                #expect(i % 3 == 2 && result == keyset, "field \(i % 3) mutated and still unwrapped: \(fields[i % 3])")
            } catch {
                switch error {
                case .malformed, .truncated, .tooLong, .parametersOutOfBounds, .wrongPhrase: continue
                default: Issue.record("unexpected \(error) for field \(i % 3): \(fields[i % 3])")
                }
            }
        }
    }

    /// Python (argon2-cffi + cryptography) unwraps Swift's wrap, and Swift unwraps Python's.
    @Test(.enabled(if: CloserReference.enabled)) func interopWithPython() throws {
        let keyset = Keyset.generateAES256GCM()
        let phrase = RecoveryPhrase.generate()
        let wrapped = try WrappedCoupleKey.wrap(keyset, phrase: phrase, parameters: Self.cheap)
        let theirs = try CloserReference.object(["op": "unwrap", "phrase": phrase.normalized, "kdfSalt": wrapped.kdfSalt,
                                                 "kdfParams": wrapped.kdfParams, "wrappedCoupleKey": wrapped.wrappedCoupleKey])
        #expect(theirs["keyset"] as? String == Hex.encode(keyset.serialized()))
        let salt = SecureRandom.bytes(16)
        let made = try CloserReference.object(["op": "wrap", "phrase": phrase.normalized, "kdfSalt": Base64.encode(salt, alphabet: .standard),
                                               "kdfParams": Self.cheap.encoded, "iv": Hex.encode(SecureRandom.bytes(12)),
                                               "keyset": Hex.encode(keyset.serialized())])
        let fromPython = WrappedCoupleKey(wrappedCoupleKey: try #require(made["wrappedCoupleKey"] as? String),
                                          kdfSalt: Base64.encode(salt, alphabet: .standard), kdfParams: Self.cheap.encoded)
        #expect(try fromPython.unwrap(phrase: phrase) == keyset)
    }
}
