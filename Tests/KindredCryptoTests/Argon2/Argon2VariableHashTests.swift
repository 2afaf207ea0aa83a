import Testing
@testable import KindredCrypto

@Suite struct Argon2VariableHashTests {
    struct Case: Decodable {
        let input: String
        let length: Int
        let output: String
    }

    struct File: Decodable {
        let variableHash: [Case]
    }

    @Test func matchesIndependentImplementation() throws {
        // Vectors from a Python H' written from RFC 9106 §3.3 on hashlib.blake2b (lengths 1...1024).
        let cases = try Vectors.load("argon2id", as: File.self).variableHash
        #expect(cases.map(\.length).contains(1024) && cases.map(\.length).contains(65))
        for c in cases {
            let output = Argon2VariableHash.hash([try Hex.decode(c.input)], length: c.length)
            #expect(output.count == c.length)
            #expect(Hex.encode(output) == c.output, "length \(c.length)")
        }
    }

    @Test func inputMayBeGivenInPieces() throws {
        let whole = Argon2VariableHash.hash([Array(0..<100)], length: 200)
        let pieces = Argon2VariableHash.hash([Array(0..<3), [], Array(3..<100)], length: 200)
        #expect(whole == pieces)
    }
}
