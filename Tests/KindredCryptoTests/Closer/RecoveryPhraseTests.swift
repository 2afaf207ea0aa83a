import Testing
@testable import KindredCrypto

@Suite struct RecoveryPhraseTests {
    @Test func wordlistProperties() {
        let words = RecoveryWordlist.words
        #expect(words.count == 256)
        #expect(Set(words).count == 256)
        #expect(Set(words.map { $0.prefix(4) }).count == 256)
        #expect(words == words.sorted())
        for word in words {
            #expect((4...8).contains(word.count), "\(word)")
            #expect(word.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }, "\(word)")
            #expect(!words.contains { $0 != word && $0.hasPrefix(word) }, "\(word) is a prefix of another word")
        }
        #expect(words.first == "acorn" && words[255] == "zipper")
    }

    @Test func parsesAndNormalises() throws {
        let phrase = try RecoveryPhrase(parsing: "  Acorn ZIPPER\tbana  \n  garden castle   cast  zebr apple  tiger  robin ")
        #expect(phrase.normalized == "acorn zipper banana garden castle castle zebra apple tiger robin")
        #expect(phrase.indices == [0, 255, 19, 93, 41, 41, 254, 7, 226, 191])
        #expect(try RecoveryPhrase(parsing: phrase.normalized) == phrase)
        #expect(try RecoveryPhrase(indices: phrase.indices) == phrase)
        #expect(phrase.description == "RecoveryPhrase(10 words, redacted)")
    }

    @Test func namesTheFirstProblem() {
        #expect(throws: KindredCryptoError.invalidPhrase("expected 10 words, got 9")) {
            try RecoveryPhrase(parsing: "acorn acorn acorn acorn acorn acorn acorn acorn acorn")
        }
        #expect(throws: KindredCryptoError.invalidPhrase("expected 10 words, got 0")) { try RecoveryPhrase(parsing: " \n ") }
        #expect(throws: KindredCryptoError.invalidPhrase("expected 10 words, got 11")) {
            try RecoveryPhrase(parsing: String(repeating: "acorn ", count: 11))
        }
        let unknown = "word 3 is not in the word list (type the whole word or its first four letters)"
        #expect(throws: KindredCryptoError.invalidPhrase(unknown)) { try RecoveryPhrase(parsing: "acorn acorn aco acorn acorn acorn acorn acorn acorn acorn") }
        #expect(throws: KindredCryptoError.invalidPhrase(unknown)) { try RecoveryPhrase(parsing: "acorn acorn acorny acorn acorn acorn acorn acorn acorn xyz") }
        #expect(throws: KindredCryptoError.invalidPhrase(unknown)) { try RecoveryPhrase(parsing: "acorn acorn acörn acorn acorn acorn acorn acorn acorn acorn") }
        #expect(throws: KindredCryptoError.invalidPhrase("expected 10 words, got 3")) { try RecoveryPhrase(indices: [1, 2, 3]) }
    }

    @Test func everyFourLetterPrefixIdentifiesItsWord() throws {
        for (index, word) in RecoveryWordlist.words.enumerated() {
            #expect(RecoveryPhrase.index(of: String(word.prefix(4))) == UInt8(index))
            #expect(RecoveryPhrase.index(of: word) == UInt8(index))
            #expect(RecoveryPhrase.index(of: String(word.prefix(3))) == nil)
        }
    }

    @Test func generationIsUniformOverTheList() {
        var rng = SeededGenerator(seed: 1)
        var counts = [Int](repeating: 0, count: 256)
        for _ in 0..<2_560 {
            let phrase = RecoveryPhrase.generate(using: &rng)
            #expect(phrase.indices.count == 10)
            for i in phrase.indices { counts[Int(i)] += 1 }
        }
        // 25,600 draws: each word ~100 times; a stuck or biased generator lands far outside.
        #expect(counts.min() ?? 0 > 50 && counts.max() ?? 0 < 160)
        #expect(RecoveryPhrase.generate() != RecoveryPhrase.generate())
    }

    @Test func mutatedPhrasesGiveTypedErrors() {
        var rng = SeededGenerator(seed: 0x5048_5241_5345)
        let base = RecoveryPhrase.generate(using: &rng).normalized
        var accepted = 0
        for _ in 0..<10_000 {
            let typed = Mutator.mutate(base, using: &rng)
            do {
                let phrase = try RecoveryPhrase(parsing: typed)
                accepted += 1
                #expect(phrase.words.count == 10)
            } catch {
                guard case .invalidPhrase = error else { Issue.record("unexpected \(error)"); return }
            }
        }
        #expect(accepted > 0)
    }
}
