@testable import KindredServerCore
import Testing

/// The request validator's JSON parser: RFC 8259 values, escapes, and the bounded depth.
@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.5e2, true, false, null], "b": {"c": "d"}, "a": ""} "#)
        #expect(
            value
                == .object([
                    ("a", .array([.number(1), .number(-250), .bool(true), .bool(false), .null])),
                    ("b", .object([("c", .string("d"))])), ("a", .string("")),
                ])
        )
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00z""#) == .string("a\"\\/\u{08}\u{0C}\n\r\té😀z"))
        // A lone surrogate is a character too (U+FFFD), as JSON Schema counts lengths.
        #expect(try parse(#""\ud800x""#) == .string("\u{FFFD}x"))
        #expect(try parse(#""\udc00""#) == .string("\u{FFFD}"))
        #expect(try parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"",
        "{\"a\" 1}", "[1 2]", "\"tab\there\"", "1 2", "{1:2}",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONParser.Failure.malformed) { try parse(text) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParser.Failure.malformed) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func boundsTheNesting() throws {
        let deepest = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(throws: Never.self) { try parse(deepest) }
        let deeper = "[" + deepest + "]"
        #expect(throws: JSONParser.Failure.tooDeep) { try parse(deeper) }
        // Far deeper than a stack would survive unbounded: refused, not a crash.
        #expect(throws: JSONParser.Failure.tooDeep) { try parse(String(repeating: "{\"a\":", count: 100_000)) }
    }
}
