import Testing
@testable import KindredCrypto

@Suite struct SealedPayloadTests {
    static func vectorContext() throws -> (CloserVectors.Sealed, SealedAnswerContext) {
        let v = try CloserVectors.load().sealed
        return (v, try SealedAnswerContext(coupleId: v.coupleId, questionId: v.questionId, userId: v.userId))
    }

    @Test func knownAnswer() throws {
        let (v, context) = try Self.vectorContext()
        let json = try SealedPayload.canonicalJSON(answer: v.answer, context: context, nonce: Hex.decode(v.nonce))
        #expect(json == Array(v.canonicalJSON.utf8))
        #expect(try SealedPayload.seal(json, oneTimeKey: Hex.decode(v.oneTimeKey), context: context, iv: Hex.decode(v.iv)) == v.payload)
        #expect(AnswerCommitment.commit(json) == v.commitment)
        #expect(try SealedPayload.open(v.payload, oneTimeKey: Hex.decode(v.oneTimeKey), context: context) == json)
        try AnswerCommitment.verify(v.commitment, matches: json)
        let contents = try SealedPayload.parse(json)
        #expect(contents == SealedPayload.Contents(answer: v.answer, coupleId: v.coupleId, questionId: v.questionId,
                                                   userId: v.userId, nonce: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"))
        #expect(CloserWireFormat.isSealedPayload(v.payload) && CloserWireFormat.isCommitmentHash(v.commitment))
    }

    @Test func shortestAnswerClearsTheMinimumAndNoncesDiffer() throws {
        let context = try SealedAnswerContext(coupleId: "c", questionId: "q", userId: "u")
        let a = try SealedPayload.canonicalJSON(answer: "", context: context)
        let b = try SealedPayload.canonicalJSON(answer: "", context: context)
        #expect(a != b)
        #expect(a.count == 118)  // {"answer":"","coupleId":"c","nonce":"<43>","questionId":"q","userId":"u","v":1}
        let sealed = try SealedPayload.seal(a, oneTimeKey: [UInt8](repeating: 1, count: 32), context: context)
        #expect(sealed.utf8.count == 205)  // "sealed:v1:" + 195 characters for 118 + 28 bytes
        #expect(CloserWireFormat.isSealedPayload(sealed))
    }

    @Test func wrongKeyOrContextFailsAuthentication() throws {
        let (v, context) = try Self.vectorContext()
        var key = try Hex.decode(v.oneTimeKey)
        key[31] ^= 1
        #expect(throws: KindredCryptoError.authenticationFailed) { try SealedPayload.open(v.payload, oneTimeKey: key, context: context) }
        for other in [try SealedAnswerContext(coupleId: "couple-7Hq3", questionId: v.questionId, userId: v.userId),
                      try SealedAnswerContext(coupleId: v.coupleId, questionId: "q-2024-05-02", userId: v.userId),
                      try SealedAnswerContext(coupleId: v.coupleId, questionId: v.questionId, userId: "partner")] {
            #expect(throws: KindredCryptoError.authenticationFailed) { try SealedPayload.open(v.payload, oneTimeKey: Hex.decode(v.oneTimeKey), context: other) }
        }
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 16)) {
            try SealedPayload.open(v.payload, oneTimeKey: [UInt8](repeating: 0, count: 16), context: context)
        }
    }

    @Test func contextIdentifiersAreChecked() {
        #expect(throws: KindredCryptoError.invalidParameters("questionId contains '|'")) { try SealedAnswerContext(coupleId: "c", questionId: "a|b", userId: "u") }
        #expect(throws: KindredCryptoError.invalidParameters("coupleId is empty")) { try SealedAnswerContext(coupleId: "", questionId: "q", userId: "u") }
        #expect(throws: KindredCryptoError.invalidParameters("recipientUserId is longer than 256 bytes")) {
            try KeyboxContext(coupleId: "c", questionId: "q", senderUserId: "s", recipientUserId: String(repeating: "r", count: 257))
        }
    }

    @Test func payloadJSONIsCheckedStrictly() throws {
        let nonce = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
        let cases: [(String, String)] = [
            (#"{"answer":"a","coupleId":"c","nonce":"\#(nonce)","questionId":"q","userId":"u","v":2}"#,
             "payload must have exactly v=1, answer, coupleId, questionId, userId and nonce"),
            (#"{"answer":"a","coupleId":"c","nonce":"\#(nonce)","questionId":"q","userId":"u"}"#,
             "payload must have exactly v=1, answer, coupleId, questionId, userId and nonce"),
            (#"{"answer":1,"coupleId":"c","nonce":"\#(nonce)","questionId":"q","userId":"u","v":1}"#, "payload member answer is missing or not a string"),
            (#"{"answer":"a","coupleId":"c","nonce":"AAAA","questionId":"q","userId":"u","v":1}"#, "payload nonce is not 32 bytes of base64url"),
            (#"{"coupleId":"c","answer":"a","nonce":"\#(nonce)","questionId":"q","userId":"u","v":1}"#, "JSON is not in RFC 8785 canonical form"),
            (#"["answer"]"#, "payload is not a JSON object"),
        ]
        for (json, reason) in cases {
            #expect(throws: KindredCryptoError.malformed(format: "sealed:v1", reason: reason), "\(json)") { try SealedPayload.parse(Array(json.utf8)) }
        }
    }

    @Test func mutatedPayloadsGiveTypedErrors() throws {
        let (v, context) = try Self.vectorContext()
        let key = try Hex.decode(v.oneTimeKey)
        var rng = SeededGenerator(seed: 0x5345_414C)
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(v.payload, using: &rng)
            do {
                _ = try SealedPayload.open(mutated, oneTimeKey: key, context: context)
                Issue.record("a mutated payload opened: \(mutated)")
            } catch {
                switch error {
                case .wrongPrefix(format: "sealed:v1", expected: "sealed:v1:"), .truncated(format: "sealed:v1"), .malformed(format: "sealed:v1", _),
                     .tooLong(format: "sealed:v1", _), .authenticationFailed: continue
                default: Issue.record("unexpected \(error)")
                }
            }
        }
    }

    @Test func mutatedCommitmentsGiveTypedErrors() throws {
        let (v, _) = try Self.vectorContext()
        let json = Array(v.canonicalJSON.utf8)
        var rng = SeededGenerator(seed: 0x5348_4132)
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(v.commitment, using: &rng)
            do {
                try AnswerCommitment.verify(mutated, matches: json)
                Issue.record("a mutated commitment matched: \(mutated)")
            } catch {
                switch error {
                case .wrongPrefix(format: "sha256", expected: "sha256:"), .truncated(format: "sha256"), .malformed(format: "sha256", _),
                     .tooLong(format: "sha256", _), .commitmentMismatch: continue
                default: Issue.record("unexpected \(error)")
                }
            }
        }
    }

    /// Swift seals random answers; the Python reference opens them and recomputes the commitment.
    @Test(.enabled(if: CloserReference.enabled)) func pythonOpensWhatSwiftSeals() throws {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<5 {
            let answer = String((0..<Int.random(in: 0...40, using: &rng)).map { _ in "aZ \n\"\\é😀\u{1}".randomElement(using: &rng) ?? "a" })
            let context = try SealedAnswerContext(coupleId: "c\(rng.next() % 1000)", questionId: "q", userId: "u")
            let json = try SealedPayload.canonicalJSON(answer: answer, context: context)
            let key = rng.bytes(32)
            let payload = try SealedPayload.seal(json, oneTimeKey: key, context: context)
            let result = try CloserReference.object(["op": "sealed-open", "payload": payload, "key": Hex.encode(key),
                                                     "aad": "\(context.coupleId)|q|u"])
            #expect(result["json"] as? String == Hex.encode(json))
            #expect(result["canonical"] as? Bool == true)
            #expect(result["commitment"] as? String == AnswerCommitment.commit(json))
        }
    }
}
