import Testing
@testable import KindredCrypto

@Suite struct InviteTransportTests {
    static let cheap = try! CloserKDFParameters(memoryKiB: 64, iterations: 2, parallelism: 1)
    static let tiny = try! CloserKDFParameters(memoryKiB: 8, iterations: 1, parallelism: 1)

    @Test func knownAnswer() throws {
        let v = try CloserVectors.load().invite
        let share = try InviteShare(parsing: v.share)
        #expect(share.code == v.code && share.secret.symbols == v.secret)
        #expect(String(decoding: [InviteSecret.checkSymbol(for: v.secret)], as: UTF8.self) == v.checkSymbol)
        #expect(share.text == v.share)
        let phrase = try RecoveryPhrase(parsing: v.phrase)
        let salt = try Base64.decode(v.kdfSalt, alphabet: .standard)
        let created = try InviteTransport.create(phrase: phrase, code: v.code, parameters: CloserKDFParameters(encoded: v.kdfParams),
                                                 secret: share.secret, salt: salt, iv: Hex.decode(v.iv))
        #expect(created.encryptedPhrase == v.encryptedPhrase)
        #expect(created.verifier == v.verifier)
        #expect(created.kdfSalt == v.kdfSalt && created.kdfParams == v.kdfParams)
        let keys = try InviteKeys(secret: share.secret, code: v.code, kdfSalt: v.kdfSalt, kdfParams: v.kdfParams)
        #expect(Hex.encode(keys.phraseKey) == v.phraseKey && Hex.encode(keys.verifierKey) == v.verifierKey)
        // The acceptor's side.
        let presented = try InviteTransport.verifier(secret: share.secret, code: share.code, kdfSalt: v.kdfSalt, kdfParams: v.kdfParams)
        #expect(InviteTransport.verify(presented: presented, stored: v.verifier))
        #expect(try InviteTransport.decryptPhrase(v.encryptedPhrase, secret: share.secret, code: share.code,
                                                  kdfSalt: v.kdfSalt, kdfParams: v.kdfParams) == phrase)
    }

    @Test func wholeFlowAndWrongSecrets() throws {
        let phrase = RecoveryPhrase.generate()
        let code = InviteCode.generate()
        let created = try InviteTransport.create(phrase: phrase, code: code, parameters: Self.cheap)
        #expect(CloserWireFormat.isInvitePhrase(created.encryptedPhrase) && CloserWireFormat.isInviteVerifier(created.verifier))
        let share = try InviteShare(parsing: InviteShare(code: code, secret: created.secret).text.lowercased())
        let keys = try InviteKeys(secret: share.secret, code: share.code, kdfSalt: created.kdfSalt, kdfParams: created.kdfParams)
        #expect(InviteTransport.verify(presented: keys.verifier, stored: created.verifier))
        #expect(try keys.decryptPhrase(created.encryptedPhrase) == phrase)

        // A code guesser without the secret, or with the right secret for another code.
        let guess = InviteSecret.generate()
        let wrong = try InviteKeys(secret: guess, code: code, kdfSalt: created.kdfSalt, kdfParams: created.kdfParams)
        #expect(!InviteTransport.verify(presented: wrong.verifier, stored: created.verifier))
        #expect(throws: KindredCryptoError.wrongInviteSecret) { try wrong.decryptPhrase(created.encryptedPhrase) }
        let otherCode = try InviteKeys(secret: created.secret, code: code == "ZZZZZZ" ? "YYYYYY" : "ZZZZZZ", kdfSalt: created.kdfSalt, kdfParams: created.kdfParams)
        #expect(!InviteTransport.verify(presented: otherCode.verifier, stored: created.verifier))
        #expect(throws: KindredCryptoError.wrongInviteSecret) { try otherCode.decryptPhrase(created.encryptedPhrase) }
        #expect(!InviteTransport.verify(presented: "verifier:v1:short", stored: created.verifier))
        #expect(!InviteTransport.verify(presented: created.verifier, stored: "garbage"))
        #expect(throws: KindredCryptoError.malformed(format: "invite code", reason: "character 3 is not one of A-Z, a-z, 0-9")) {
            try InviteTransport.create(phrase: phrase, code: "AB-DEF", parameters: Self.cheap)
        }
    }

    @Test func everyProducedStringMatchesTheRules() throws {
        var rng = SeededGenerator(seed: 0x5255_4C45)
        for _ in 0..<200 {
            let code = InviteCode.generate()
            let created = try InviteTransport.create(phrase: .generate(using: &rng), code: code, parameters: Self.tiny,
                                                     secret: .generate(using: &rng), salt: rng.bytes(16), iv: nil)
            #expect(CloserWireFormat.isInviteCode(code))
            #expect(CloserWireFormat.isInvitePhrase(created.encryptedPhrase), "\(created.encryptedPhrase)")
            #expect(CloserWireFormat.isInviteVerifier(created.verifier))
            #expect(try InviteShare(parsing: InviteShare(code: code, secret: created.secret).text).secret == created.secret)
        }
    }

    /// Production parameters: the server's fields never contain the phrase, and the flow works.
    @Test func productionParameters() throws {
        let phrase = RecoveryPhrase.generate()
        let created = try InviteTransport.create(phrase: phrase, code: "7K3QXM")
        #expect(created.kdfParams == CloserKDFParameters.closer.encoded)
        for field in [created.encryptedPhrase, created.verifier, created.kdfSalt, created.kdfParams] {
            #expect(!phrase.words.contains { field.contains($0) })
        }
        #expect(try InviteTransport.decryptPhrase(created.encryptedPhrase, secret: created.secret, code: "7K3QXM",
                                                  kdfSalt: created.kdfSalt, kdfParams: created.kdfParams) == phrase)
    }

    @Test func mutatedInviteFieldsGiveTypedErrors() throws {
        var rng = SeededGenerator(seed: 0x494E_5649_5445)
        let phrase = RecoveryPhrase.generate(using: &rng)
        let secret = InviteSecret.generate(using: &rng)
        let created = try InviteTransport.create(phrase: phrase, code: "7K3QXM", parameters: Self.tiny, secret: secret,
                                                 salt: rng.bytes(16), iv: nil)
        let keys = try InviteKeys(secret: secret, code: "7K3QXM", kdfSalt: created.kdfSalt, kdfParams: created.kdfParams)
        // 10,000 mutations of each: encrypted phrase, verifier, salt, parameters.
        for i in 0..<40_000 {
            switch i % 4 {
            case 0:  // the encrypted phrase
                let mutated = Mutator.mutate(created.encryptedPhrase, using: &rng)
                do {
                    _ = try keys.decryptPhrase(mutated)
                    Issue.record("mutated phrase blob opened: \(mutated)")
                } catch {
                    switch error {
                    case .wrongPrefix(format: "invite:v1", _), .truncated(format: "invite:v1"), .malformed(format: "invite:v1", _),
                         .tooLong(format: "invite:v1", _), .wrongInviteSecret: continue
                    default: Issue.record("unexpected \(error)")
                    }
                }
            case 1:  // the verifier the server compares
                let mutated = Mutator.mutate(created.verifier, using: &rng)
                #expect(!InviteTransport.verify(presented: mutated, stored: created.verifier), "\(mutated)")
            default:  // salt or parameters handed to the acceptor
                let mutateSalt = i % 4 == 2
                let salt = mutateSalt ? Mutator.mutate(created.kdfSalt, using: &rng) : created.kdfSalt
                let params = mutateSalt ? created.kdfParams : Mutator.mutate(created.kdfParams, using: &rng)
                do {
                    let presented = try InviteTransport.verifier(secret: secret, code: "7K3QXM", kdfSalt: salt, kdfParams: params)
                    let reparsed = try CloserKDFParameters(encoded: params)
                    // Only a re-spelling of the same parameters (e.g. whitespace) may still verify.
                    if InviteTransport.verify(presented: presented, stored: created.verifier) {
                        #expect(!mutateSalt && reparsed == Self.tiny)
                    }
                } catch {
                    switch error {
                    case .malformed, .tooLong, .parametersOutOfBounds: continue
                    default: Issue.record("unexpected \(error)")
                    }
                }
            }
        }
    }

    /// The Python reference opens Swift's invites and Swift opens the reference's.
    @Test(.enabled(if: CloserReference.enabled)) func interopWithPython() throws {
        let phrase = RecoveryPhrase.generate()
        let created = try InviteTransport.create(phrase: phrase, code: "Q7W2ER", parameters: Self.cheap)
        let opened = try CloserReference.object(["op": "invite-open", "secret": created.secret.symbols, "code": "Q7W2ER",
                                                 "kdfSalt": created.kdfSalt, "kdfParams": created.kdfParams,
                                                 "encryptedPhrase": created.encryptedPhrase])
        #expect(opened["phrase"] as? String == phrase.normalized)
        #expect(opened["verifier"] as? String == created.verifier)
        let secret = InviteSecret.generate()
        let salt = Base64.encode(SecureRandom.bytes(16), alphabet: .standard)
        let made = try CloserReference.object(["op": "invite-create", "secret": secret.symbols, "code": "Q7W2ER", "kdfSalt": salt,
                                               "kdfParams": Self.cheap.encoded, "iv": Hex.encode(SecureRandom.bytes(12)),
                                               "phrase": phrase.normalized])
        let keys = try InviteKeys(secret: secret, code: "Q7W2ER", kdfSalt: salt, kdfParams: Self.cheap.encoded)
        #expect(try keys.decryptPhrase(try #require(made["encryptedPhrase"] as? String)) == phrase)
        #expect(InviteTransport.verify(presented: keys.verifier, stored: try #require(made["verifier"] as? String)))
    }
}
