import Foundation
import Testing
@testable import KindredCrypto

@Suite struct Base64Tests {
    @Test func rfc4648Vectors() throws {
        let cases: [(String, String, String)] = [
            ("", "", ""), ("f", "Zg==", "Zg"), ("fo", "Zm8=", "Zm8"), ("foo", "Zm9v", "Zm9v"),
            ("foob", "Zm9vYg==", "Zm9vYg"), ("fooba", "Zm9vYmE=", "Zm9vYmE"), ("foobar", "Zm9vYmFy", "Zm9vYmFy"),
        ]
        for (plain, std, url) in cases {
            #expect(Base64.encode(Array(plain.utf8), alphabet: .standard) == std)
            #expect(Base64.encode(Array(plain.utf8), alphabet: .urlSafeNoPadding) == url)
            #expect(try Base64.decode(std, alphabet: .standard) == Array(plain.utf8))
            #expect(try Base64.decode(url, alphabet: .urlSafeNoPadding) == Array(plain.utf8))
        }
        #expect(Base64.encode([0xfb, 0xff], alphabet: .standard) == "+/8=")
        #expect(Base64.encode([0xfb, 0xff], alphabet: .urlSafeNoPadding) == "-_8")
    }

    @Test func rejectsNonCanonicalText() {
        for bad in ["Zg=", "Zh==", "Z===", "Zm9v\n", "-_8=", "Zm 9v", "Zg==Zg=="] {
            #expect(throws: KindredCryptoError.self) { try Base64.decode(bad, alphabet: .standard) }
        }
        for bad in ["Zg==", "Zh", "Z", "+/8", "Zm9v=", "Zm9v!"] {
            #expect(throws: KindredCryptoError.self) { try Base64.decode(bad, alphabet: .urlSafeNoPadding) }
        }
    }

    @Test func roundTripsRandomBytes() throws {
        var rng = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for alphabet in [Base64.Alphabet.standard, .urlSafeNoPadding] {
                #expect(try Base64.decode(Base64.encode(bytes, alphabet: alphabet), alphabet: alphabet) == bytes)
            }
        }
    }

    @Test func hexRoundTripAndErrors() throws {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.encode([UInt8]()) == "")
        // Every byte value, from contiguous storage and from a sequence without it.
        let all = (0...255).map { UInt8($0) }
        let expected = all.map { String(format: "%02x", $0) }.joined()
        #expect(Hex.encode(all) == expected)
        #expect(Hex.encode(all.lazy.map { $0 }) == expected)
        #expect(try Hex.decode(expected) == all)
        #expect(try Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(throws: KindredCryptoError.malformed(format: "hex", reason: "odd length")) { try Hex.decode("abc") }
        #expect(throws: KindredCryptoError.malformed(format: "hex", reason: "invalid character")) { try Hex.decode("zz") }
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
    }

    /// The eight-character bulk loops agree with Foundation's encoder at every length, and the
    /// decoder refuses a character outside the alphabet at every position of the bulk part.
    @Test func bulkLoopsAgreeWithFoundation() throws {
        var rng = SeededGenerator(seed: 0x4236_3457)
        for length in 0..<300 {
            let bytes = rng.bytes(length)
            let standard = Data(bytes).base64EncodedString()
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64.encode(bytes, alphabet: .standard) == standard)
            #expect(Base64.encode(bytes, alphabet: .urlSafeNoPadding) == url)
            #expect(Base64.encode(bytes, alphabet: .urlSafeNoPadding, prefix: "sealed:v1:") == "sealed:v1:" + url)
            #expect(try Base64.decode(standard, alphabet: .standard) == bytes)
            #expect(try Base64.decode(url, alphabet: .urlSafeNoPadding) == bytes)
        }
        let text = Array(Base64.encode(rng.bytes(60), alphabet: .urlSafeNoPadding).utf8)  // 80 characters
        for position in 0..<text.count {
            for bad in ["+", "/", "=", " ", "\u{0}", "\u{80}", "\u{ff}"].map({ UInt8(Unicode.Scalar($0)!.value) }) {
                var mutated = text
                mutated[position] = bad
                #expect(throws: KindredCryptoError.malformed(format: "base64", reason: "invalid character")) {
                    try mutated.withUnsafeBufferPointer { try Base64.decode($0, alphabet: .urlSafeNoPadding, format: "base64").get() }
                }
            }
        }
    }
}
