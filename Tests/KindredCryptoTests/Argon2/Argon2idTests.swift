import Testing
@testable import KindredCrypto

@Suite struct Argon2idTests {
    struct Case: Decodable {
        var name: String? = nil
        let password: String
        let salt: String
        let secret: String
        let ad: String
        let m: UInt32
        let t: UInt32
        let p: UInt32
        let length: Int
        let tag: String

        func hash() throws -> [UInt8] {
            let parameters = Argon2id.Parameters(
                memoryKiB: m, iterations: t, parallelism: p, outputLength: length,
                secret: try Hex.decode(secret), associatedData: try Hex.decode(ad)
            )
            return try Argon2id.hash(password: try Hex.decode(password), salt: try Hex.decode(salt), parameters: parameters)
        }
    }

    struct File: Decodable {
        let rfc9106: Case
        let cases: [Case]
    }

    @Test func rfc9106Section5_3Vector() throws {
        let rfc = try Vectors.load("argon2id", as: File.self).rfc9106
        #expect(rfc.password == String(repeating: "01", count: 32) && rfc.salt == String(repeating: "02", count: 16))
        #expect(rfc.secret == String(repeating: "03", count: 8) && rfc.ad == String(repeating: "04", count: 12))
        #expect(rfc.m == 32 && rfc.t == 3 && rfc.p == 4 && rfc.length == 32)
        #expect(rfc.tag == "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659")
        #expect(Hex.encode(try rfc.hash()) == rfc.tag)
    }

    @Test func argon2CffiVectors() throws {
        // Closer's and OWASP's parameters plus random cases with secret, associated data,
        // p = 1...4, m not a multiple of 4p and tags longer than 64 bytes (argon2-cffi's argon2_ctx).
        let cases = try Vectors.load("argon2id", as: File.self).cases
        #expect(cases.count >= 7)
        #expect(cases.contains { $0.m == 46080 && $0.t == 3 && $0.p == 1 && $0.length == 32 })
        for c in cases {
            #expect(Hex.encode(try c.hash()) == c.tag, "\(c.name ?? "")")
        }
    }

    @Test func closerAndPasswordPresets() {
        #expect(Argon2id.Parameters.closer == Argon2id.Parameters(memoryKiB: 46080, iterations: 3, parallelism: 1, outputLength: 32))
        #expect(Argon2id.Parameters.password == Argon2id.Parameters(memoryKiB: 19456, iterations: 2, parallelism: 1, outputLength: 32))
    }

    @Test func everyInputChangesTheTag() throws {
        let base = Argon2id.Parameters(memoryKiB: 16, iterations: 1, parallelism: 1, outputLength: 16)
        let salt = [UInt8](repeating: 9, count: 8)
        let reference = try Argon2id.hash(password: [1], salt: salt, parameters: base)
        var variants: [[UInt8]] = []
        variants.append(try Argon2id.hash(password: [2], salt: salt, parameters: base))
        variants.append(try Argon2id.hash(password: [1], salt: salt + [0], parameters: base))
        for change in [
            { (p: inout Argon2id.Parameters) in p.memoryKiB = 17 }, { $0.iterations = 2 }, { $0.parallelism = 2 },
            { $0.outputLength = 17 }, { $0.secret = [0] }, { $0.associatedData = [0] },
        ] {
            var parameters = base
            change(&parameters)
            variants.append(try Argon2id.hash(password: [1], salt: salt, parameters: parameters))
        }
        for variant in variants { #expect(variant.prefix(16) != reference[...]) }
        #expect(try Argon2id.hash(password: [1], salt: salt, parameters: base) == reference)
    }

    @Test func refusesBadSaltBeforeHashing() {
        let parameters = Argon2id.Parameters(memoryKiB: 8, iterations: 1, parallelism: 1)
        #expect(throws: KindredCryptoError.invalidParameters("Argon2id salt must be 8...4294967295 bytes, got 7")) {
            try Argon2id.hash(password: [], salt: [UInt8](repeating: 0, count: 7), parameters: parameters)
        }
    }

    @Test func refusesInvalidParameters() {
        let bad = Argon2id.Parameters(memoryKiB: 8, iterations: 0, parallelism: 1)
        #expect(throws: KindredCryptoError.invalidParameters("Argon2id iterations must be at least 1")) {
            try Argon2id.hash(password: [], salt: [UInt8](repeating: 0, count: 8), parameters: bad)
        }
    }
}
