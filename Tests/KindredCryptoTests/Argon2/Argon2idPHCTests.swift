import Testing
@testable import KindredCrypto

@Suite struct Argon2idPHCTests {
    struct Item: Decodable {
        let password: String
        let phc: String
    }

    struct File: Decodable {
        let phc: [Item]
    }

    static let format = "argon2id PHC"
    /// An argon2-cffi string (m=64, t=1, p=1, 16-byte salt, 32-byte tag) from Vectors/argon2id.json.
    static let valid = "$argon2id$v=19$m=64,t=1,p=1$+EjxxCp40ftCBGB1Rs4sxg$Rdy1kD1pY2PYyIsuQfv6UZQ9q9JnDmzLjK8V7aELzcY"
    static let validPassword: [UInt8] = [0xed, 0x40, 0xd7, 0x36, 0x82, 0x38, 0xdb, 0xc8, 0xc3, 0x9b, 0x9c, 0x44]

    @Test func parsesAndFormatsExactly() throws {
        let phc = try Argon2id.PHC(parsing: Self.valid)
        #expect(phc.parameters == Argon2id.Parameters(memoryKiB: 64, iterations: 1, parallelism: 1, outputLength: 32))
        #expect(phc.salt == (try Base64.decode("+EjxxCp40ftCBGB1Rs4sxg==", alphabet: .standard)))
        #expect(phc.hash.count == 32)
        #expect(phc.string == Self.valid)
    }

    @Test func roundTripsAndVerifies() throws {
        let parameters = Argon2id.Parameters(memoryKiB: 32, iterations: 2, parallelism: 2, outputLength: 20)
        let salt: [UInt8] = Array(1...11)
        let phc = try Argon2id.phcHash(password: Array("hunter2".utf8), parameters: parameters, salt: salt)
        #expect(phc.hasPrefix("$argon2id$v=19$m=32,t=2,p=2$AQIDBAUGBwgJCgs$"))
        let parsed = try Argon2id.PHC(parsing: phc)
        #expect(parsed.salt == salt && parsed.parameters == parameters)
        #expect(parsed.hash == (try Argon2id.hash(password: Array("hunter2".utf8), salt: salt, parameters: parameters)))
        #expect(try Argon2id.verify(password: Array("hunter2".utf8), phc: phc))
        #expect(try !Argon2id.verify(password: Array("hunter3".utf8), phc: phc))
        #expect(try !Argon2id.verify(password: [], phc: phc))
    }

    @Test func randomSaltsDiffer() throws {
        let parameters = Argon2id.Parameters(memoryKiB: 8, iterations: 1, parallelism: 1)
        let a = try Argon2id.PHC(parsing: try Argon2id.phcHash(password: [1], parameters: parameters))
        let b = try Argon2id.PHC(parsing: try Argon2id.phcHash(password: [1], parameters: parameters))
        #expect(a.salt.count == 16 && b.salt.count == 16 && a.salt != b.salt && a.hash != b.hash)
    }

    @Test func verifiesArgon2CffiStrings() throws {
        // argon2-cffi's encoder (what PasswordHasher writes) with p = 1...3, 8- to 32-byte salts, 16- to 64-byte tags.
        let items = try Vectors.load("argon2id", as: File.self).phc
        #expect(items.count == 3)
        for item in items {
            let password = try Hex.decode(item.password)
            #expect(try Argon2id.verify(password: password, phc: item.phc))
            #expect(try !Argon2id.verify(password: password + [0], phc: item.phc))
            #expect(try Argon2id.PHC(parsing: item.phc).string == item.phc)
        }
        #expect(try Argon2id.verify(password: Self.validPassword, phc: Self.valid))
    }

    @Test func refusesSecretsItCannotRecord() {
        let parameters = Argon2id.Parameters(memoryKiB: 8, iterations: 1, parallelism: 1, secret: [1])
        #expect(throws: KindredCryptoError.invalidParameters("a PHC string cannot record an Argon2id secret or associated data")) {
            try Argon2id.phcHash(password: [], parameters: parameters)
        }
    }

    @Test func malformedStringsGiveTypedErrors() {
        let salt = "+EjxxCp40ftCBGB1Rs4sxg", tag = "Rdy1kD1pY2PYyIsuQfv6UZQ9q9JnDmzLjK8V7aELzcY"
        let f = Self.format
        let cases: [(String, KindredCryptoError)] = [
            ("", .wrongPrefix(format: f, expected: "$argon2id$")),
            ("$argon2i$v=19$m=64,t=1,p=1$\(salt)$\(tag)", .wrongPrefix(format: f, expected: "$argon2id$")),
            ("$argon2id$v=19$m=64,t=1,p=1$\(salt)", .truncated(format: f)),
            ("$argon2id$v=19$m=64,t=1,p=1", .truncated(format: f)),
            ("$argon2id$m=64,t=1,p=1$\(salt)$\(tag)", .truncated(format: f)),
            ("$argon2id$v=19$m=64,t=1,p=1$\(salt)$\(tag)$x", .malformed(format: f, reason: "too many fields")),
            ("$argon2id$v=16$m=64,t=1,p=1$\(salt)$\(tag)", .malformed(format: f, reason: "unsupported version v=16")),
            ("$argon2id$v=$m=64,t=1,p=1$\(salt)$\(tag)", .malformed(format: f, reason: "expected v=<number>")),
            ("$argon2id$v=19$m=64,t=1$\(salt)$\(tag)", .malformed(format: f, reason: "expected m=…,t=…,p=…")),
            ("$argon2id$v=19$t=1,m=64,p=1$\(salt)$\(tag)", .malformed(format: f, reason: "expected m=<number>")),
            ("$argon2id$v=19$m=064,t=1,p=1$\(salt)$\(tag)", .malformed(format: f, reason: "m is not a canonical decimal number")),
            ("$argon2id$v=19$m=+64,t=1,p=1$\(salt)$\(tag)", .malformed(format: f, reason: "m is not a canonical decimal number")),
            ("$argon2id$v=19$m=4294967296,t=1,p=1$\(salt)$\(tag)", .malformed(format: f, reason: "m is larger than 4294967295")),
            ("$argon2id$v=19$m=4294967295,t=1,p=1$\(salt)$\(tag)", .parametersOutOfBounds("Argon2id m=4294967295 KiB exceeds 262144 KiB")),
            ("$argon2id$v=19$m=64,t=4294967295,p=1$\(salt)$\(tag)", .parametersOutOfBounds("Argon2id t=4294967295 exceeds 10")),
            ("$argon2id$v=19$m=64,t=1,p=9$\(salt)$\(tag)", .parametersOutOfBounds("Argon2id p=9 exceeds 8")),
            ("$argon2id$v=19$m=64,t=0,p=1$\(salt)$\(tag)", .invalidParameters("Argon2id iterations must be at least 1")),
            ("$argon2id$v=19$m=64,t=1,p=0$\(salt)$\(tag)", .invalidParameters("Argon2id parallelism must be 1...16777215, got 0")),
            ("$argon2id$v=19$m=16,t=1,p=4$\(salt)$\(tag)", .invalidParameters("Argon2id memory must be at least 8·p = 32 KiB, got 16")),
            ("$argon2id$v=19$m=64,t=1,p=1$AAAAAA$\(tag)", .invalidParameters("Argon2id salt must be at least 8 bytes, got 4")),
            ("$argon2id$v=19$m=64,t=1,p=1$\(salt)$AAAA", .invalidParameters("Argon2id output length must be 4...4294967295 bytes, got 3")),
            ("$argon2id$v=19$m=64,t=1,p=1$+Ejx!Cp40ftCBGB1Rs4sxg$\(tag)", .malformed(format: f, reason: "invalid character")),
            ("$argon2id$v=19$m=64,t=1,p=1$-EjxxCp40ftCBGB1Rs4sxg$\(tag)", .malformed(format: f, reason: "invalid character")),
            ("$argon2id$v=19$m=64,t=1,p=1$\(salt)==$\(tag)", .malformed(format: f, reason: "Base64 must not be padded")),
            ("$argon2id$v=19$m=64,t=1,p=1$+EjxxCp40ftCBGB1Rs4sxh$\(tag)", .malformed(format: f, reason: "non-zero trailing bits")),
            ("$argon2id$v=19$m=64,t=1,p=1$\(salt)$Rdy1k", .malformed(format: f, reason: "impossible Base64 length")),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text)") { try Argon2id.PHC(parsing: text) }
            #expect(throws: error, "\(text)") { try Argon2id.verify(password: [], phc: text) }
        }
    }

    @Test func tagOfSixtyFiveBytesIsOutOfBounds() {
        let tag = String(Base64.encode([UInt8](repeating: 7, count: 65), alphabet: .standard).filter { $0 != "=" })
        #expect(throws: KindredCryptoError.parametersOutOfBounds("Argon2id tag of 65 bytes exceeds 64")) {
            try Argon2id.PHC(parsing: "$argon2id$v=19$m=64,t=1,p=1$+EjxxCp40ftCBGB1Rs4sxg$\(tag)")
        }
    }

    @Test func tighterBoundsAreHonoured() {
        let bounds = Argon2id.Bounds(maxMemoryKiB: 32)
        #expect(throws: KindredCryptoError.parametersOutOfBounds("Argon2id m=64 KiB exceeds 32 KiB")) {
            try Argon2id.verify(password: Self.validPassword, phc: Self.valid, bounds: bounds)
        }
        #expect(throws: KindredCryptoError.parametersOutOfBounds("Argon2id salt exceeds 8 bytes")) {
            try Argon2id.PHC(parsing: Self.valid, bounds: Argon2id.Bounds(maxSaltLength: 8))
        }
    }

    @Test func tenThousandMutationsNeverCrash() throws {
        // Small costs keep each verification cheap; tight bounds refuse mutated costs above them
        // before any memory is allocated.
        let bounds = Argon2id.Bounds(maxMemoryKiB: 64, maxIterations: 2, maxParallelism: 2)
        let password: [UInt8] = Array("mutation".utf8)
        let base = try Argon2id.phcHash(
            password: password, parameters: Argon2id.Parameters(memoryKiB: 8, iterations: 1, parallelism: 1, outputLength: 8),
            salt: Array(1...8)
        )
        var rng = SeededGenerator(seed: 0xA2)
        var refused = [String: Int]()
        var verifiedFalse = 0
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(base, using: &rng)
            do {
                let matches = try Argon2id.verify(password: password, phc: mutated, bounds: bounds)
                // A different string is different values (parsing is canonical): it cannot match.
                #expect(!matches, "\(mutated)")
                #expect(try Argon2id.PHC(parsing: mutated, bounds: bounds).string == mutated)
                verifiedFalse += 1
            } catch {
                refused[String(describing: error).components(separatedBy: " (").first!, default: 0] += 1
            }
        }
        #expect(verifiedFalse > 100)
        #expect(refused.count >= 5, "\(refused)")
    }
}
