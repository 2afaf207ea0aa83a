import Foundation
import Testing
@testable import KindredCrypto

@Suite struct CanonicalJSONTests {
    /// RFC 8785 §3.2.3's sorting example; the expected bytes were written out by hand from the
    /// RFC's sorted order (\r, 1, U+0080, ö, €, 😀, U+FB33): UTF-16 order puts the surrogate pair
    /// D83D DE00 before U+FB33 although its code point is larger.
    @Test func rfc8785SortingExample() throws {
        let input = #"""
        {
          "\u20ac": "Euro Sign",
          "\r": "Carriage Return",
          "\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\ud83d\ude00": "Emoji: Grinning Face",
          "\u0080": "Control",
          "\u00f6": "Latin Small Letter O With Diaeresis"
        }
        """#
        let expected = "7b225c72223a2243617272696167652052657475726e222c2231223a224f6e65222c22c280223a22436f6e74726f6c222c22c3b6223a224c6174696e20536d616c6c204c6574746572204f205769746820446961657265736973222c22e282ac223a224575726f205369676e222c22f09f9880223a22456d6f6a693a204772696e6e696e672046616365222c22efacb3223a22486562726577204c65747465722044616c6574205769746820446167657368227d"
        let value = try CanonicalJSON.parse(Array(input.utf8))
        #expect(Hex.encode(try CanonicalJSON.encode(value)) == expected)
        #expect(try CanonicalJSON.parseCanonical(Hex.decode(expected)) == value)
    }

    /// RFC 8785 §3.2.2.2's string and literal example (its numbers are outside Closer's subset).
    @Test func rfc8785StringExample() throws {
        let input = #"{ "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false] }"#
        let expected = "7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c22737472696e67223a22e282ac245c75303030665c6e4127425c225c5c5c5c5c222f227d"
        #expect(Hex.encode(try CanonicalJSON.encode(CanonicalJSON.parse(Array(input.utf8)))) == expected)
    }

    @Test func escapesExactlyTheControlCharacters() throws {
        var expected = ""
        for c in 0..<0x20 {
            switch c {
            case 0x08: expected += "\\b"
            case 0x09: expected += "\\t"
            case 0x0a: expected += "\\n"
            case 0x0c: expected += "\\f"
            case 0x0d: expected += "\\r"
            default: expected += String(format: "\\u%04x", c)
            }
        }
        let all = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self) + "\u{7f}/\"\\é€😀"
        #expect(try CanonicalJSON.string(.string(all)) == "\"" + expected + "\u{7f}/\\\"\\\\é€😀\"")
    }

    @Test func integersAndNesting() throws {
        let value = CanonicalJSON.Value.object(["b": .array([.integer(-0), .integer(9_007_199_254_740_991), .integer(-42)]),
                                                "a": .object([:]), "": .array([])])
        #expect(try CanonicalJSON.string(value) == #"{"":[],"a":{},"b":[0,9007199254740991,-42]}"#)
        #expect(throws: KindredCryptoError.invalidParameters("JSON integer 9007199254740992 is beyond ±(2^53 - 1)")) {
            try CanonicalJSON.encode(.integer(9_007_199_254_740_992))
        }
    }

    @Test func parserRefusesWhatCanonicalFormForbids() throws {
        let cases: [(String, String)] = [
            (#"{"a":1,"a":2}"#, "duplicate member name"),
            (#"{"a":1.5}"#, "only integers are supported"),
            (#"{"a":1e3}"#, "only integers are supported"),
            (#"{"a":01}"#, "leading zero"),
            (#"{"a":9007199254740992}"#, "integer beyond 2^53 - 1"),
            (#"["\ud800"]"#, "lone surrogate"),
            (#"["\udc00"]"#, "lone surrogate"),
            (#"["\ud800\u0041"]"#, "lone surrogate"),
            (#"["\q"]"#, "invalid escape"),
            (#"{"a":1} x"#, "trailing characters after the JSON value"),
            (#"{"a" 1}"#, "expected ':'"),
            (#"[1 2]"#, "expected ',' or ']'"),
            (#"tru"#, "invalid literal"),
            ("[\"\u{01}\"]", "unescaped control character in string"),
            ("", "unexpected end of JSON"),
            (String(repeating: "[", count: 17) + String(repeating: "]", count: 17), "nested deeper than 16"),
        ]
        for (text, reason) in cases {
            #expect(throws: KindredCryptoError.malformed(format: "json", reason: reason), "\(text)") {
                try CanonicalJSON.parse(Array(text.utf8))
            }
        }
        #expect(throws: KindredCryptoError.malformed(format: "json", reason: "string is not valid UTF-8")) {
            try CanonicalJSON.parse([0x22, 0xff, 0x22])
        }
        #expect(try CanonicalJSON.parse(Array((String(repeating: "[", count: 16) + String(repeating: "]", count: 16)).utf8)) != .null)
        for nonCanonical in [#"{"b":1,"a":2}"#, #"{ "a":1}"#, #"[-0]"#, #"["\u0041"]"#, #"["\/"]"#, "[\"\\u001F\"]"] {
            #expect(throws: KindredCryptoError.malformed(format: "json", reason: "JSON is not in RFC 8785 canonical form")) {
                try CanonicalJSON.parseCanonical(Array(nonCanonical.utf8))
            }
        }
    }

    @Test func mutatedJSONNeverCrashes() throws {
        var rng = SeededGenerator(seed: 0x4A43_5331)
        let seed = Array(#"{"answer":"a \"b\" 😀\n","coupleId":"c1","nonce":"AAAA","v":1,"x":[true,false,null,-12,{"y":[]}]}"#.utf8)
        var accepted = 0
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(seed, using: &rng)
            do {
                let value = try CanonicalJSON.parse(mutated)
                accepted += 1
                // Whatever parses re-encodes and parses back to the same value.
                #expect(try CanonicalJSON.parse(CanonicalJSON.encode(value)) == value)
            } catch {
                guard case .malformed(format: "json", reason: _) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
            }
        }
        #expect(accepted > 0)
    }

    /// Both directions against the Python reference's own JCS (keys sorted by UTF-16 code units).
    @Test(.enabled(if: CloserReference.enabled)) func agreesWithPythonReference() throws {
        // Python → Swift: non-canonical JSON (escaped or literal, indented or not) → same canonical bytes.
        let generated = try #require(try CloserReference.call(["op": "jcs-generate", "seed": 7, "count": 300]) as? [[String: String]])
        #expect(generated.count == 300)
        for item in generated {
            let text = try Hex.decode(try #require(item["text"]))
            #expect(Hex.encode(try CanonicalJSON.encode(CanonicalJSON.parse(text))) == item["canonical"])
        }
        // Swift → Python: Swift's canonical output of random values is already canonical for Python.
        var rng = SeededGenerator(seed: 99)
        let mine = (0..<300).map { _ in (try? CanonicalJSON.encode(Self.randomValue(&rng, depth: 0))) ?? [] }
        let theirs = try #require(try CloserReference.call(["op": "jcs-check", "items": mine.map(Hex.encode)]) as? [String])
        #expect(theirs == mine.map(Hex.encode))
    }

    static let pool: [String] = ["a", "B", "1", "\r", "\u{0}", "\u{1f}", "\u{7f}", "\"", "\\", "/", "\u{80}", "ö", "€",
                                 "\u{d7ff}", "\u{e000}", "\u{fb33}", "\u{ffff}", "😀", "\u{10000}", "\u{10ffff}", " "]

    static func randomValue(_ rng: inout SeededGenerator, depth: Int) -> CanonicalJSON.Value {
        func text() -> String { (0..<Int.random(in: 0...5, using: &rng)).map { _ in pool.randomElement(using: &rng) ?? "" }.joined() }
        switch Int.random(in: 0...(depth < 3 ? 6 : 3), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(Int64.random(in: -CanonicalJSON.maximumSafeInteger...CanonicalJSON.maximumSafeInteger, using: &rng))
        case 3: return .string(text())
        case 4: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var members: [String: CanonicalJSON.Value] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &rng) { members[text()] = randomValue(&rng, depth: depth + 1) }
            return .object(members)
        }
    }

    /// The eight-bytes-at-a-time escape scan finds exactly the first `"`, `\` or control byte.
    @Test func escapeScanMatchesTheByteWiseRule() {
        func naive(_ bytes: [UInt8], from start: Int) -> Int {
            bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5c } ?? bytes.count
        }
        // Every byte value at every position of a word of ordinary bytes, plus a word-crossing tail.
        for value in 0...255 {
            for position in 0..<19 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
                bytes[position] = UInt8(value)
                let found = bytes.withUnsafeBufferPointer { CanonicalJSON.firstNeedingEscape(in: $0, from: 0) }
                #expect(found == naive(bytes, from: 0), "byte \(value) at \(position)")
            }
        }
        // Random buffers (bytes near the classes' edges are frequent) from random starts.
        var rng = SeededGenerator(seed: 0x5343_414E)
        let edges: [UInt8] = [0x00, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                Int.random(in: 0..<8, using: &rng) == 0 ? (edges.randomElement(using: &rng) ?? 0) : UInt8.random(in: 0x23...0x5b, using: &rng)
            }
            let start = Int.random(in: 0...bytes.count, using: &rng)
            let found = bytes.withUnsafeBufferPointer { CanonicalJSON.firstNeedingEscape(in: $0, from: start) }
            #expect(found == naive(bytes, from: start), "\(bytes) from \(start)")
        }
    }
}
