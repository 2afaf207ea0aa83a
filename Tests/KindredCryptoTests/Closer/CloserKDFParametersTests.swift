import Testing
@testable import KindredCrypto

@Suite struct CloserKDFParametersTests {
    @Test func encodingIsCanonicalJSON() throws {
        #expect(CloserKDFParameters.closer.encoded == #"{"alg":"argon2id","len":32,"m":46080,"p":1,"t":3,"v":19}"#)
        let cheap = try CloserKDFParameters(memoryKiB: 64, iterations: 2, parallelism: 1)
        #expect(try CanonicalJSON.parseCanonical(Array(cheap.encoded.utf8)) != .null)
        #expect(try CloserKDFParameters(encoded: cheap.encoded) == cheap)
        // Any member order and JSON whitespace is read.
        #expect(try CloserKDFParameters(encoded: #"{ "v": 19, "m": 46080, "t": 3, "p": 1, "len": 32, "alg": "argon2id" }"#) == .closer)
    }

    /// Out-of-bounds parameters are refused while parsing: m = 2³¹ KiB (2 TiB) returns at once.
    @Test func boundsAreCheckedBeforeAnyWork() throws {
        func params(m: Int = 64, t: Int = 2, p: Int = 1, len: Int = 32, v: Int = 19, alg: String = "argon2id") -> String {
            #"{"alg":"\#(alg)","len":\#(len),"m":\#(m),"p":\#(p),"t":\#(t),"v":\#(v)}"#
        }
        let cases: [(String, String)] = [
            (params(m: 2_147_483_648), "m = 2147483648 KiB is outside 8...262144"),
            (params(m: 262_145), "m = 262145 KiB is outside 8...262144"),
            (params(m: 15, p: 2), "m = 15 KiB is outside 16...262144"),
            (params(t: 11), "t = 11 is outside 1...10"),
            (params(t: 0), "t = 0 is outside 1...10"),
            (params(p: 9), "p = 9 is outside 1...8"),
            (params(p: 0), "p = 0 is outside 1...8"),
            (params(len: 64), "len = 64, only 32 is accepted"),
            (params(v: 16), "v = 16, only 19 is accepted"),
            (params(alg: "argon2i"), "alg argon2i is not argon2id"),
        ]
        for (text, reason) in cases {
            #expect(throws: KindredCryptoError.parametersOutOfBounds(reason), "\(text)") { try CloserKDFParameters(encoded: text) }
            let wrapped = WrappedCoupleKey(wrappedCoupleKey: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", kdfSalt: "AAAAAAAAAAAAAAAAAAAAAA==", kdfParams: text)
            #expect(throws: KindredCryptoError.parametersOutOfBounds(reason)) { try wrapped.unwrap(phrase: RecoveryPhrase(indices: [UInt8](repeating: 0, count: 10))) }
        }
        #expect(throws: KindredCryptoError.parametersOutOfBounds("t = 11 is outside 1...10")) {
            try CloserKDFParameters(memoryKiB: 64, iterations: 11, parallelism: 1)
        }
    }

    @Test func malformedParameters() {
        let cases: [(String, KindredCryptoError)] = [
            (#"{"alg":"argon2id","len":32,"m":64,"p":1,"t":2}"#, .malformed(format: "kdfParams", reason: "members must be exactly alg, len, m, p, t, v")),
            (#"{"alg":"argon2id","len":32,"m":64,"p":1,"t":2,"v":19,"x":0}"#, .malformed(format: "kdfParams", reason: "members must be exactly alg, len, m, p, t, v")),
            (#"{"alg":"argon2id","len":32,"m":"64","p":1,"t":2,"v":19}"#, .malformed(format: "kdfParams", reason: "m is not an integer")),
            (#"{"alg":2,"len":32,"m":64,"p":1,"t":2,"v":19}"#, .malformed(format: "kdfParams", reason: "alg is not a string")),
            (#"{"alg":"argon2id","len":32,"m":64.5,"p":1,"t":2,"v":19}"#, .malformed(format: "kdfParams", reason: "only integers are supported")),
            (#"[1]"#, .malformed(format: "kdfParams", reason: "not a JSON object")),
            ("$argon2id$v=19$m=64,t=2,p=1", .malformed(format: "kdfParams", reason: "unexpected character")),
            (String(repeating: " ", count: 129), .tooLong(format: "kdfParams", limit: 128)),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text)") { try CloserKDFParameters(encoded: text) }
        }
    }
}
