import Testing
@testable import KindredCrypto

@Suite struct BLAKE2bTests {
    struct Case: Decodable {
        let message: String
        let key: String
        let length: Int
        let digest: String
    }

    struct File: Decodable {
        let cases: [Case]
    }

    @Test func rfc7693AbcVector() throws {
        // RFC 7693 Appendix A: BLAKE2b-512("abc").
        let digest = try BLAKE2b.hash(Array("abc".utf8))
        #expect(Hex.encode(digest) == "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            + "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923")
    }

    @Test func matchesHashlibVectors() throws {
        let file = try Vectors.load("blake2b", as: File.self)
        #expect(file.cases.count >= 40)
        for c in file.cases {
            let digest = try BLAKE2b.hash(try Hex.decode(c.message), outputLength: c.length, key: try Hex.decode(c.key))
            #expect(Hex.encode(digest) == c.digest, "message \(c.message.count / 2) B, key \(c.key.count / 2) B, out \(c.length)")
        }
    }

    @Test func incrementalUpdatesMatchOneShot() throws {
        var rng = SeededGenerator(seed: 7)
        for length in [0, 1, 127, 128, 129, 256, 300] {
            let message = rng.bytes(length)
            let key = rng.bytes(Int.random(in: 0...64, using: &rng))
            let expected = try BLAKE2b.hash(message, outputLength: 48, key: key)
            var state = try BLAKE2b(outputLength: 48, key: key)
            var offset = 0
            while offset < message.count {
                let take = min(Int.random(in: 0...130, using: &rng), message.count - offset)
                state.update(Array(message[offset..<(offset + take)]))
                offset += take
            }
            #expect(state.finalize() == expected, "length \(length)")
        }
    }

    @Test func refusesBadLengths() {
        #expect(throws: KindredCryptoError.invalidParameters("BLAKE2b output length must be 1...64 bytes, got 0")) {
            try BLAKE2b(outputLength: 0)
        }
        #expect(throws: KindredCryptoError.invalidParameters("BLAKE2b output length must be 1...64 bytes, got 65")) {
            try BLAKE2b.hash([], outputLength: 65)
        }
        #expect(throws: KindredCryptoError.invalidParameters("BLAKE2b key must be at most 64 bytes, got 65")) {
            try BLAKE2b(key: [UInt8](repeating: 1, count: 65))
        }
    }
}
