import Foundation
import Testing
@testable import KindredCrypto

@Suite struct CloserWireFormatTests {
    typealias Format = CloserWireFormat.Format

    /// The Firestore rules' patterns, with `\z` for `$` (ICU's `$` also matches before a final
    /// newline; RE2, which the rules use, does not) plus Kindred's own invite patterns.
    static let patterns: [Format: String] = [
        .ciphertext: #"\Aenc:v1:[A-Za-z0-9+/]+={0,2}\z"#,
        .sealedPayload: #"\Asealed:v1:[A-Za-z0-9_-]{80,}\z"#,
        .keybox: #"\Akeybox:v1:[A-Za-z0-9_-]{120,}\z"#,
        .commitmentHash: #"\Asha256:[A-Za-z0-9_-]{43}\z"#,
        .publicKey: #"\Apub:v1:[A-Za-z0-9_-]{128,}\z"#,
        .inviteCode: #"\A[A-Za-z0-9]{6}\z"#,
        .invitePhrase: #"\Ainvite:v1:[A-Za-z0-9_-]{100,}\z"#,
        .inviteVerifier: #"\Averifier:v1:[A-Za-z0-9_-]{43}\z"#,
    ]

    static func regexAccepts(_ s: String, _ format: Format) throws -> Bool {
        let regex = try NSRegularExpression(pattern: try #require(patterns[format]))
        let range = NSRange(s.startIndex..<s.endIndex, in: s)
        return regex.firstMatch(in: s, range: range) != nil && s.utf8.count <= format.maximumLength
    }

    @Test func exactReasons() {
        #expect(CloserWireFormat.problem("sealed:v1:" + String(repeating: "A", count: 12), as: .sealedPayload)
            == "body has 12 characters, at least 80 required")
        #expect(CloserWireFormat.problem("sealed:v2:AAAA", as: .sealedPayload) == "does not start with sealed:v1:")
        #expect(CloserWireFormat.problem("sha256:" + String(repeating: "A", count: 42), as: .commitmentHash)
            == "body has 42 characters, exactly 43 required")
        #expect(CloserWireFormat.problem("enc:v1:QUJD=A==", as: .ciphertext) == "'=' at body character 5 is not at the end")
        #expect(CloserWireFormat.problem("enc:v1:QUJD===", as: .ciphertext) == "more than two '=' padding characters")
        #expect(CloserWireFormat.problem("enc:v1:", as: .ciphertext) == "body has no Base64 characters")
        #expect(CloserWireFormat.problem("enc:v1:QU-D", as: .ciphertext) == "character 3 of the body is not one of A-Z, a-z, 0-9, + and /")
        #expect(CloserWireFormat.problem("keybox:v1:" + String(repeating: "a", count: 200) + "+", as: .keybox)
            == "character 201 of the body is not one of A-Z, a-z, 0-9, - and _")
        #expect(CloserWireFormat.problem("keybox:v1:" + String(repeating: "a", count: 503), as: .keybox) == "513 characters, at most 512 allowed")
        #expect(CloserWireFormat.problem("AB12x_", as: .inviteCode) == "character 6 is not one of A-Z, a-z, 0-9")
        #expect(CloserWireFormat.isInviteCode("aB3dE9"))
        #expect(CloserWireFormat.isCiphertext("enc:v1:A"))
        #expect(CloserWireFormat.isCiphertext("enc:v1:AB=="))
        #expect(!CloserWireFormat.isCiphertext("enc:v1:AB==\n"))
        #expect(CloserWireFormat.isCommitmentHash("sha256:" + String(repeating: "-", count: 43)))
        #expect(CloserWireFormat.isSealedPayload("sealed:v1:" + String(repeating: "_", count: 80)))
        #expect(CloserWireFormat.isKeybox("keybox:v1:" + String(repeating: "x", count: 120)))
        #expect(CloserWireFormat.isPublicKey("pub:v1:" + String(repeating: "x", count: 128)))
        #expect(!CloserWireFormat.isPublicKey("pub:v1:" + String(repeating: "x", count: 127)))
        #expect(CloserWireFormat.isInviteVerifier("verifier:v1:" + String(repeating: "x", count: 43)))
        #expect(CloserWireFormat.isInvitePhrase("invite:v1:" + String(repeating: "x", count: 100)))
        #expect(CloserWireFormat.claimedFormat(of: "keybox:v1:x") == .keybox)
        #expect(CloserWireFormat.claimedFormat(of: "ABCDEF") == .inviteCode)
        #expect(CloserWireFormat.claimedFormat(of: "hello") == nil)
    }

    @Test func decodeBodyErrors() throws {
        #expect(throws: KindredCryptoError.wrongPrefix(format: "sealed:v1", expected: "sealed:v1:")) {
            try CloserWireFormat.decodeBody("enc:v1:AAAA", as: .sealedPayload)
        }
        #expect(throws: KindredCryptoError.truncated(format: "sealed:v1")) {
            try CloserWireFormat.decodeBody("sealed:v1:AAAA", as: .sealedPayload)
        }
        #expect(throws: KindredCryptoError.tooLong(format: "keybox:v1", limit: 512)) {
            try CloserWireFormat.decodeBody("keybox:v1:" + String(repeating: "A", count: 600), as: .keybox)
        }
        #expect(throws: KindredCryptoError.malformed(format: "sha256", reason: "non-zero trailing bits")) {
            try CloserWireFormat.decodeBody("sha256:" + String(repeating: "A", count: 42) + "B", as: .commitmentHash)
        }
        #expect(throws: KindredCryptoError.malformed(format: "enc:v1", reason: "length is not a multiple of 4")) {
            try CloserWireFormat.decodeBody("enc:v1:QUJDR", as: .ciphertext)
        }
        #expect(try CloserWireFormat.decodeBody("enc:v1:QUJD", as: .ciphertext) == Array("ABC".utf8))
        #expect(try CloserWireFormat.decodeBody("sha256:" + String(repeating: "A", count: 43), as: .commitmentHash) == [UInt8](repeating: 0, count: 32))
    }

    /// The hand-written validators agree with NSRegularExpression on random and mutated strings.
    @Test func agreesWithRegularExpressions() throws {
        var rng = SeededGenerator(seed: 0x5245_4745_58)
        let alphabet = Array("AZaz09+/=-_:\n é".unicodeScalars)
        var checked = 0
        for format in Format.allCases {
            let prefix = format.prefix
            let seeds = [prefix + String(repeating: "A", count: format.minimumBodyLength),
                         prefix + String(repeating: "z", count: format.minimumBodyLength + 3),
                         prefix + "QUJD==", prefix + String(repeating: "_", count: format.minimumBodyLength - 1)]
            for i in 0..<2_500 {
                let candidate: String
                if i % 2 == 0, let base = seeds.randomElement(using: &rng) {
                    candidate = Mutator.mutate(base, using: &rng)
                } else {
                    let length = Int.random(in: 0...(format.minimumBodyLength + 8), using: &rng)
                    var body = String.UnicodeScalarView()
                    for _ in 0..<length { body.append(alphabet.randomElement(using: &rng) ?? "A") }
                    candidate = (Bool.random(using: &rng) ? prefix : "") + String(body)
                }
                let mine = CloserWireFormat.problem(candidate, as: format) == nil
                #expect(mine == (try Self.regexAccepts(candidate, format)), "\(format) \(candidate.debugDescription)")
                checked += 1
            }
        }
        #expect(checked == 20_000)
    }

    /// `decodeBody` as it was before its one-pass fast path: the rule check, then strict Base64.
    static func referenceDecodeBody(_ s: String, as format: Format) -> Result<[UInt8], KindredCryptoError> {
        let name = format.rawValue
        guard s.utf8.starts(with: format.prefix.utf8) else { return .failure(.wrongPrefix(format: name, expected: format.prefix)) }
        guard s.utf8.count <= format.maximumLength else { return .failure(.tooLong(format: name, limit: format.maximumLength)) }
        let body = Array(s.utf8.dropFirst(format.prefix.utf8.count))
        let standard = format == .ciphertext
        if let reason = CloserWireFormat.problem(s, as: format) {
            let clean = body.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                    || (standard ? (c == 0x2b || c == 0x2f || c == 0x3d) : (c == 0x2d || c == 0x5f))
            }
            return .failure(clean && body.count < format.minimumBodyLength ? .truncated(format: name) : .malformed(format: name, reason: reason))
        }
        return Result { () throws(KindredCryptoError) in
            try Base64.decode(String(decoding: body, as: UTF8.self), alphabet: standard ? .standard : .urlSafeNoPadding, format: name)
        }
    }

    /// The one-pass `decodeBody` gives exactly the reference's bytes or error.
    @Test func decodeBodyAgreesWithTheRuleThenDecodeReference() {
        var rng = SeededGenerator(seed: 0x4445_434F)
        let alphabet = Array("AZaz09+/=-_:\n é".unicodeScalars)
        for format in Format.allCases where format != .inviteCode {
            let prefix = format.prefix
            let seeds = [prefix + Base64.encode(rng.bytes(format.minimumBodyLength), alphabet: format == .ciphertext ? .standard : .urlSafeNoPadding),
                         prefix + Base64.encode(rng.bytes(format.minimumBodyLength / 4 * 3), alphabet: format == .ciphertext ? .standard : .urlSafeNoPadding),
                         prefix + "QUJD==", prefix + String(repeating: "_", count: format.minimumBodyLength)]
            for i in 0..<1_500 {
                let candidate: String
                if i % 2 == 0, let base = seeds.randomElement(using: &rng) {
                    candidate = Mutator.mutate(base, using: &rng)
                } else {
                    var body = String.UnicodeScalarView()
                    for _ in 0..<Int.random(in: 0...(format.minimumBodyLength + 8), using: &rng) { body.append(alphabet.randomElement(using: &rng) ?? "A") }
                    candidate = prefix + String(body)
                }
                let mine = Result { () throws(KindredCryptoError) in try CloserWireFormat.decodeBody(candidate, as: format) }
                #expect(mine == Self.referenceDecodeBody(candidate, as: format), "\(format) \(candidate.debugDescription)")
            }
        }
    }
}
