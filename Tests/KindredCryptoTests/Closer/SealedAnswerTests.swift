import Testing
@testable import KindredCrypto

@Suite struct SealedAnswerTests {
    static let aliceContext = try! SealedAnswerContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-01", userId: "alice")
    static let toBob = try! KeyboxContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-01", senderUserId: "alice", recipientUserId: "bob")

    @Test func knownAnswer() throws {
        let vectors = try CloserVectors.load()
        let v = vectors.sealed
        let context = try SealedAnswerContext(coupleId: v.coupleId, questionId: v.questionId, userId: v.userId)
        let couple = try vectors.coupleKeyset()
        let cipher = try CloserFieldCipher(coupleKeyset: couple)
        let sealed = try SealedAnswer.seal(answer: v.answer, context: context, cipher: cipher, oneTimeKey: Hex.decode(v.oneTimeKey),
                                           nonce: Hex.decode(v.nonce), iv: Hex.decode(v.iv))
        #expect(sealed.payload == v.payload)
        #expect(sealed.commitment == v.commitment)
        #expect(try cipher.decryptText(sealed.commitmentSeal, coupleId: "couple-7Hq2|q-2024-05-01|uA1b2C3d4E5f6G7h8I9j0K1l2M3n") == v.commitment)
        #expect(try cipher.encrypt(bytes: Array(v.commitment.utf8), associatedData: context.associatedData, iv: Hex.decode(v.commitmentSealIV))
            == v.commitmentSeal)
        #expect(try SealedAnswer.open(payload: v.payload, commitment: v.commitment, commitmentSeal: v.commitmentSeal,
                                      oneTimeKey: Hex.decode(v.oneTimeKey), context: context, coupleKeyset: couple) == v.answer)
    }

    @Test func fullRevealThroughAKeybox() throws {
        let couple = Keyset.generateAES256GCM()
        let bob = Keyset.generateECIESP256()
        let bobPublished = try CloserPublicKey.encode(bob.publicKeyset())
        let sealed = try SealedAnswer.seal(answer: "The lake house", context: Self.aliceContext, coupleKeyset: couple)
        let box = try Keybox.wrap(oneTimeKey: sealed.oneTimeKey, recipientPublicKeyset: CloserPublicKey.decode(bobPublished), context: Self.toBob)
        #expect(try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                      keybox: box, recipientPrivateKeyset: bob, context: Self.toBob, coupleKeyset: couple) == "The lake house")
    }

    @Test func everyProducedStringMatchesTheRules() throws {
        let couple = Keyset.generateAES256GCM()
        let bobPublic = try Keyset.generateECIESP256().publicKeyset()
        var rng = SeededGenerator(seed: 77)
        for _ in 0..<300 {
            let answer = String((0..<Int.random(in: 0...200, using: &rng)).map { _ in "ab \n😀é\"".randomElement(using: &rng) ?? "a" })
            let sealed = try SealedAnswer.seal(answer: answer, context: Self.aliceContext, coupleKeyset: couple)
            #expect(CloserWireFormat.isSealedPayload(sealed.payload))
            #expect(CloserWireFormat.isCommitmentHash(sealed.commitment))
            #expect(CloserWireFormat.isCiphertext(sealed.commitmentSeal))
            #expect(CloserWireFormat.isKeybox(try Keybox.wrap(oneTimeKey: sealed.oneTimeKey, recipientPublicKeyset: bobPublic, context: Self.toBob)))
        }
    }

    /// The server can replace payload, commitment and keybox together (Bob's key is public), but
    /// not the commitment seal, which needs the couple key.
    @Test func serverSwapIsCaughtByTheCommitmentSeal() throws {
        let couple = Keyset.generateAES256GCM()
        let bob = Keyset.generateECIESP256()
        let genuine = try SealedAnswer.seal(answer: "yes", context: Self.aliceContext, coupleKeyset: couple)
        // The server's forgery: its own payload and commitment, a keybox to Bob, Alice's real seal.
        let forged = try SealedAnswer.seal(answer: "no", context: Self.aliceContext, coupleKeyset: .generateAES256GCM())
        let forgedBox = try Keybox.wrap(oneTimeKey: forged.oneTimeKey, recipientPublicKeyset: bob.publicKeyset(), context: Self.toBob)
        #expect(throws: KindredCryptoError.commitmentMismatch) {
            try SealedAnswer.open(payload: forged.payload, commitment: forged.commitment, commitmentSeal: genuine.commitmentSeal,
                                  keybox: forgedBox, recipientPrivateKeyset: bob, context: Self.toBob, coupleKeyset: couple)
        }
        // Or with its own seal under a key it made up.
        #expect(throws: KindredCryptoError.commitmentMismatch) {
            try SealedAnswer.open(payload: forged.payload, commitment: forged.commitment, commitmentSeal: forged.commitmentSeal,
                                  keybox: forgedBox, recipientPrivateKeyset: bob, context: Self.toBob, coupleKeyset: couple)
        }
        // The genuine payload with a swapped commitment.
        #expect(throws: KindredCryptoError.commitmentMismatch) {
            try SealedAnswer.open(payload: genuine.payload, commitment: forged.commitment, commitmentSeal: genuine.commitmentSeal,
                                  oneTimeKey: genuine.oneTimeKey, context: Self.aliceContext, coupleKeyset: couple)
        }
        // A seal replayed from another question.
        let otherQuestion = try SealedAnswerContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-02", userId: "alice")
        let other = try SealedAnswer.seal(answer: "yes", context: otherQuestion, coupleKeyset: couple)
        #expect(throws: KindredCryptoError.commitmentMismatch) {
            try SealedAnswer.open(payload: genuine.payload, commitment: genuine.commitment, commitmentSeal: other.commitmentSeal,
                                  oneTimeKey: genuine.oneTimeKey, context: Self.aliceContext, coupleKeyset: couple)
        }
    }

    /// A payload whose JSON names another author than its associated data claims.
    @Test func payloadFieldsMustMatchTheContext() throws {
        let couple = Keyset.generateAES256GCM()
        let cipher = try CloserFieldCipher(coupleKeyset: couple)
        let claimed = try SealedAnswerContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-01", userId: "mallory")
        let json = try SealedPayload.canonicalJSON(answer: "hi", context: claimed)
        let key = SecureRandom.bytes(32)
        let payload = try SealedPayload.seal(json, oneTimeKey: key, context: Self.aliceContext)
        let commitment = AnswerCommitment.commit(json)
        let seal = try cipher.encrypt(bytes: Array(commitment.utf8), associatedData: Self.aliceContext.associatedData)
        #expect(throws: KindredCryptoError.commitmentMismatch) {
            try SealedAnswer.open(payload: payload, commitment: commitment, commitmentSeal: seal, oneTimeKey: key,
                                  context: Self.aliceContext, coupleKeyset: couple)
        }
        #expect(throws: KindredCryptoError.authenticationFailed) {
            try SealedAnswer.open(payload: payload, commitment: commitment, commitmentSeal: seal, oneTimeKey: SecureRandom.bytes(32),
                                  context: Self.aliceContext, coupleKeyset: couple)
        }
    }

    @Test func mutatedFieldsGiveTypedErrors() throws {
        let couple = Keyset.generateAES256GCM()
        let sealed = try SealedAnswer.seal(answer: "The lake house", context: Self.aliceContext, coupleKeyset: couple)
        var rng = SeededGenerator(seed: 0x5245_5645_414C)
        for i in 0..<10_000 {
            var fields = [sealed.payload, sealed.commitment, sealed.commitmentSeal]
            fields[i % 3] = Mutator.mutate(fields[i % 3], using: &rng)
            do {
                _ = try SealedAnswer.open(payload: fields[0], commitment: fields[1], commitmentSeal: fields[2],
                                          oneTimeKey: sealed.oneTimeKey, context: Self.aliceContext, coupleKeyset: couple)
                Issue.record("mutated field \(i % 3) opened: \(fields[i % 3])")
            } catch {
                switch error {
                case .wrongPrefix, .truncated, .malformed, .tooLong, .authenticationFailed, .commitmentMismatch: continue
                default: Issue.record("unexpected \(error)")
                }
            }
        }
    }

    /// The cipher-taking API (a `CloserFieldCipher` and a `TinkHybridDecrypt` made once) is
    /// interchangeable with the keyset-taking one, in both directions, with the same errors.
    @Test func primitivesMadeOnceMatchTheKeysetAPI() throws {
        let couple = Keyset.generateAES256GCM()
        let cipher = try CloserFieldCipher(coupleKeyset: couple)
        let bob = Keyset.generateECIESP256()
        let bobDecrypter = try TinkHybridDecrypt(privateKeyset: bob)
        let bobEncrypter = try TinkHybridEncrypt(publicKeyset: bob.publicKeyset())
        for answer in ["", "The lake house", String(repeating: "é\"\n", count: 300)] {
            let viaCipher = try SealedAnswer.seal(answer: answer, context: Self.aliceContext, cipher: cipher)
            let viaKeyset = try SealedAnswer.seal(answer: answer, context: Self.aliceContext, coupleKeyset: couple)
            for sealed in [viaCipher, viaKeyset] {
                #expect(CloserWireFormat.isSealedPayload(sealed.payload) && CloserWireFormat.isCommitmentHash(sealed.commitment)
                    && CloserWireFormat.isCiphertext(sealed.commitmentSeal) && sealed.oneTimeKey.count == 32)
                #expect(try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                              oneTimeKey: sealed.oneTimeKey, context: Self.aliceContext, cipher: cipher) == answer)
                #expect(try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                              oneTimeKey: sealed.oneTimeKey, context: Self.aliceContext, coupleKeyset: couple) == answer)
                let box = try Keybox.wrap(oneTimeKey: sealed.oneTimeKey, recipient: bobEncrypter, context: Self.toBob)
                #expect(try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                              keybox: box, recipient: bobDecrypter, context: Self.toBob, cipher: cipher) == answer)
            }
            // Fresh randomness every time: key, nonce (so payload and commitment) and both IVs.
            #expect(viaCipher.oneTimeKey != viaKeyset.oneTimeKey && viaCipher.commitment != viaKeyset.commitment)
        }
        let sealed = try SealedAnswer.seal(answer: "yes", context: Self.aliceContext, cipher: cipher)
        let otherCipher = try CloserFieldCipher(coupleKeyset: .generateAES256GCM())
        #expect(throws: KindredCryptoError.commitmentMismatch) {
            try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                  oneTimeKey: sealed.oneTimeKey, context: Self.aliceContext, cipher: otherCipher)
        }
        #expect(throws: KindredCryptoError.authenticationFailed) {
            try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                  oneTimeKey: SecureRandom.bytes(32), context: Self.aliceContext, cipher: cipher)
        }
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                  oneTimeKey: SecureRandom.bytes(31), context: Self.aliceContext, cipher: cipher)
        }
    }

    /// A payload that is valid but not canonical JSON (written by hand, sealed and committed
    /// correctly) is refused with the general parser's exact error, not accepted by the fast path.
    @Test func nonCanonicalPayloadKeepsTheGeneralError() throws {
        let couple = Keyset.generateAES256GCM()
        let cipher = try CloserFieldCipher(coupleKeyset: couple)
        let nonce = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
        let cases: [(String, String)] = [
            (#"{"answer":"\u0041","coupleId":"couple-7Hq2","nonce":"\#(nonce)","questionId":"q-2024-05-01","userId":"alice","v":1}"#,
             "JSON is not in RFC 8785 canonical form"),
            (#"{"answer":"a","coupleId":"couple-7Hq2","nonce":"\#(nonce)","questionId":"q-2024-05-01","userId":"alice","v":2}"#,
             "payload must have exactly v=1, answer, coupleId, questionId, userId and nonce"),
        ]
        for (text, reason) in cases {
            let json = Array(text.utf8)
            let key = SecureRandom.bytes(32)
            let payload = try SealedPayload.seal(json, oneTimeKey: key, context: Self.aliceContext)
            let commitment = AnswerCommitment.commit(json)
            let seal = try cipher.encrypt(bytes: Array(commitment.utf8), associatedData: Self.aliceContext.associatedData)
            #expect(throws: KindredCryptoError.malformed(format: "sealed:v1", reason: reason)) {
                try SealedAnswer.open(payload: payload, commitment: commitment, commitmentSeal: seal, oneTimeKey: key,
                                      context: Self.aliceContext, cipher: cipher)
            }
        }
    }
}
