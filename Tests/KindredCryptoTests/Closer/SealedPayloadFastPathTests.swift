import Testing
@testable import KindredCrypto

/// The payload fast paths (`writeCanonicalJSON`, `parseFast`, `answer(_:ifFor:)`) against the
/// general `CanonicalJSON` code they stand in for: same bytes written, same inputs accepted,
/// same fields decoded, on random and mutated payloads.
@Suite struct SealedPayloadFastPathTests {
    /// Characters that exercise every escape rule: all controls, quote, backslash, slash, DEL,
    /// multi-byte UTF-8 and a few plain letters.
    static let alphabet: [Character] = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
        + ["\"", "\\", "/", "\u{7f}", "é", "€", "😀", "\u{2028}", "a", "Z", "0", " ", "{", "}", ":", ","]

    static func randomText(_ rng: inout SeededGenerator, maxLength: Int, allowEmpty: Bool = true) -> String {
        let length = Int.random(in: (allowEmpty ? 0 : 1)...maxLength, using: &rng)
        return String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
    }

    /// A random identifier `SealedAnswerContext` accepts (non-empty, no `|`).
    static func randomIdentifier(_ rng: inout SeededGenerator) -> String {
        randomText(&rng, maxLength: 12, allowEmpty: false)
    }

    static func randomContext(_ rng: inout SeededGenerator) throws -> SealedAnswerContext {
        try SealedAnswerContext(coupleId: randomIdentifier(&rng), questionId: randomIdentifier(&rng), userId: randomIdentifier(&rng))
    }

    /// The general path's verdict: the fields, or the exact error.
    static func general(_ json: [UInt8]) -> Result<SealedPayload.Contents, KindredCryptoError> {
        Result { () throws(KindredCryptoError) in try SealedPayload.parseGeneral(json) }
    }

    static func fast(_ json: [UInt8]) -> SealedPayload.Contents? {
        json.withUnsafeBufferPointer { SealedPayload.parseFast($0) }
    }

    /// Checks that the fast reader accepts exactly what the general parser accepts, with equal
    /// fields, and that `parse` (fast, then general) keeps the general parser's exact result.
    static func expectAgreement(_ json: [UInt8], _ note: @autoclosure () -> String) {
        let reference = general(json)
        switch (fast(json), reference) {
        case (let f?, .success(let g)): #expect(f == g, "\(note())")
        case (nil, .failure): break
        case (let f, let g): Issue.record("fast \(String(describing: f)) vs general \(g) for \(note())")
        }
        #expect(Result { () throws(KindredCryptoError) in try SealedPayload.parse(json) } == reference, "\(note())")
    }

    @Test func writerMatchesTheGeneralEncoder() throws {
        var rng = SeededGenerator(seed: 0x5752_4954)
        for _ in 0..<2_000 {
            let context = try Self.randomContext(&rng)
            let answer = Self.randomText(&rng, maxLength: 40)
            let nonce = rng.bytes(32)
            let expected = try CanonicalJSON.encode(.object([
                "v": .integer(1), "coupleId": .string(context.coupleId), "questionId": .string(context.questionId),
                "userId": .string(context.userId), "answer": .string(answer),
                "nonce": .string(Base64.encode(nonce, alphabet: .urlSafeNoPadding)),
            ]))
            #expect(try SealedPayload.canonicalJSON(answer: answer, context: context, nonce: nonce) == expected)
        }
    }

    @Test func readerAgreesOnValidPayloads() throws {
        var rng = SeededGenerator(seed: 0x5245_4144)
        for _ in 0..<2_000 {
            let context = try Self.randomContext(&rng)
            let answer = Self.randomText(&rng, maxLength: 40)
            let json = try SealedPayload.canonicalJSON(answer: answer, context: context, nonce: rng.bytes(32))
            let contents = try #require(Self.fast(json))
            #expect(contents.answer == answer && contents.coupleId == context.coupleId
                && contents.questionId == context.questionId && contents.userId == context.userId)
            Self.expectAgreement(json, "valid payload")
        }
    }

    @Test func readerAgreesOnTenThousandMutations() throws {
        var rng = SeededGenerator(seed: 0x4D55_5441)
        let context = try SealedAnswerContext(coupleId: "c\"1", questionId: "q\n2", userId: "u\\3")
        let seeds = try (0..<20).map { _ in
            try SealedPayload.canonicalJSON(answer: Self.randomText(&rng, maxLength: 24), context: context, nonce: rng.bytes(32))
        }
        for i in 0..<10_000 {
            let mutated = Mutator.mutate(seeds[i % seeds.count], using: &rng)
            Self.expectAgreement(mutated, "\(mutated)")
        }
    }

    /// Near misses the byte mutator rarely produces: every non-canonical spelling of a string,
    /// invalid UTF-8 in each member, member order, whitespace, `v` and the nonce.
    @Test func readerAgreesOnNearMisses() throws {
        let nonce = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
        func payload(answer: String = "a", coupleId: String = "c", nonce n: String = nonce, questionId: String = "q",
                     userId: String = "u", tail: String = #","v":1}"#) -> [UInt8] {
            Array(#"{"answer":"\#(answer)","coupleId":"\#(coupleId)","nonce":"\#(n)","questionId":"\#(questionId)","userId":"\#(userId)"\#(tail)"#.utf8)
        }
        var cases: [[UInt8]] = [payload()]
        for escape in [#"\u0041"#, #"\/"#, #"\u000A"#, #"\u000a"#, #"\u0008"#, #"\u001F"#, #"\u001f"#, #"\u0020"#, #"\u007f"#,
                       #"\b"#, #"\t"#, #"\x"#, #"\u00"#, #"\u12345"#, #"\ud83d\ude00"#, #"\""#, #"\\"#, "\u{1}", "\u{7f}"] {
            cases += [payload(answer: "x\(escape)y"), payload(coupleId: escape), payload(userId: "\(escape)\(escape)")]
        }
        for bad: [UInt8] in [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]] {
            // A marker character (found nowhere else in the text) in one member becomes the bad bytes.
            for marker in ["#", "%", "&", "*", "$"] {
                var json = marker == "$" ? payload(nonce: "$" + nonce.dropFirst())
                    : payload(answer: marker == "#" ? "#" : "a", coupleId: marker == "%" ? "%" : "c",
                              questionId: marker == "&" ? "&" : "q", userId: marker == "*" ? "*" : "u")
                let at = try #require(json.firstIndex(of: UInt8(ascii: Unicode.Scalar(marker)!)))
                json.replaceSubrange(at...at, with: bad)
                cases.append(json)
            }
        }
        cases += [
            payload(tail: #","v":2}"#), payload(tail: #","v":01}"#), payload(tail: #","v":1 }"#), payload(tail: #","v":1,"x":1}"#),
            payload(tail: #","v":"1"}"#), payload(tail: #"}"#), payload(tail: #","v":1}x"#), payload(tail: #","v":1"#),
            payload(nonce: String(nonce.dropLast())), payload(nonce: nonce + "A"), payload(nonce: String(nonce.dropLast()) + "9"),
            payload(nonce: String(nonce.dropLast()) + "+"), payload(nonce: ""),
            Array(#"{"coupleId":"c","answer":"a","nonce":"\#(nonce)","questionId":"q","userId":"u","v":1}"#.utf8),
            Array(#"{ "answer":"a","coupleId":"c","nonce":"\#(nonce)","questionId":"q","userId":"u","v":1}"#.utf8),
            Array(#"{"answer":"a","answer":"a","coupleId":"c","nonce":"\#(nonce)","questionId":"q","userId":"u","v":1}"#.utf8),
            Array(#"["answer"]"#.utf8), [], Array("{}".utf8),
        ]
        for json in cases {
            Self.expectAgreement(json, String(decoding: json, as: UTF8.self))
        }
    }

    /// The open fast path returns an answer exactly when the general path would return it.
    @Test func answerFastPathAgreesWithTheGeneralCheck() throws {
        var rng = SeededGenerator(seed: 0x414E_5357)
        for i in 0..<5_000 {
            let written = try Self.randomContext(&rng)
            let json = try SealedPayload.canonicalJSON(answer: Self.randomText(&rng, maxLength: 20), context: written, nonce: rng.bytes(32))
            let input = i % 3 == 0 ? Mutator.mutate(json, using: &rng) : json
            // Expect either the context it was written for, or another one (often sharing some identifiers).
            let expected = i % 2 == 0 ? written : try SealedAnswerContext(
                coupleId: rng.next() % 2 == 0 ? written.coupleId : Self.randomIdentifier(&rng),
                questionId: rng.next() % 2 == 0 ? written.questionId : Self.randomIdentifier(&rng),
                userId: rng.next() % 2 == 0 ? written.userId : Self.randomIdentifier(&rng))
            let generalAnswer = (try? SealedPayload.parseGeneral(input)).flatMap { c in
                c.coupleId.utf8.elementsEqual(expected.coupleId.utf8) && c.questionId.utf8.elementsEqual(expected.questionId.utf8)
                    && c.userId.utf8.elementsEqual(expected.userId.utf8) ? c.answer : nil
            }
            let fastAnswer = input.withUnsafeBufferPointer { SealedPayload.answer($0, ifFor: expected) }
            #expect(fastAnswer == generalAnswer, "\(input)")
        }
    }
}
