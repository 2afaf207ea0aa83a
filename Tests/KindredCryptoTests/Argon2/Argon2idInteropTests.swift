import Testing
@testable import KindredCrypto

/// Live interop with argon2-cffi (the reference C implementation) through Interop/argon2_interop.py.
@Suite(.enabled(if: Argon2Python.enabled, "python3 with argon2-cffi not found (set CI=true to make this a failure)"))
struct Argon2idInteropTests {
    struct RawCase {
        let password: [UInt8], salt: [UInt8], parameters: Argon2id.Parameters

        var json: [String: Any] {
            ["password": Hex.encode(password), "salt": Hex.encode(salt), "secret": Hex.encode(parameters.secret),
             "ad": Hex.encode(parameters.associatedData), "m": parameters.memoryKiB, "t": parameters.iterations,
             "p": parameters.parallelism, "length": parameters.outputLength]
        }
    }

    /// Asks argon2-cffi for the tags of `cases` and compares them with ours.
    private func expectSameTags(_ cases: [RawCase]) throws {
        let answer = try Argon2Python.run(["command": "raw", "cases": cases.map(\.json)])
        let tags = try #require(answer["tags"] as? [String])
        try #require(tags.count == cases.count)
        for (c, tag) in zip(cases, tags) {
            let ours = try Argon2id.hash(password: c.password, salt: c.salt, parameters: c.parameters)
            #expect(Hex.encode(ours) == tag, "\(c.json)")
        }
    }

    @Test func randomCasesMatchArgon2Cffi() throws {
        var rng = SeededGenerator(seed: 0x1309)
        var cases: [RawCase] = []
        for i in 0..<24 {
            let p = UInt32.random(in: 1...4, using: &rng)
            let parameters = Argon2id.Parameters(
                memoryKiB: UInt32.random(in: (8 * p)...512, using: &rng),
                iterations: UInt32.random(in: 1...4, using: &rng),
                parallelism: p,
                outputLength: Int.random(in: 4...64, using: &rng),
                // Every third case also carries a secret and associated data.
                secret: i % 3 == 0 ? rng.bytes(Int.random(in: 1...32, using: &rng)) : [],
                associatedData: i % 3 == 0 ? rng.bytes(Int.random(in: 1...32, using: &rng)) : []
            )
            cases.append(RawCase(
                password: rng.bytes(Int.random(in: 0...64, using: &rng)),
                salt: rng.bytes(Int.random(in: 8...32, using: &rng)),
                parameters: parameters
            ))
        }
        try expectSameTags(cases)
    }

    @Test func closerParametersMatchArgon2Cffi() throws {
        var rng = SeededGenerator(seed: 0xC105E)
        try expectSameTags([RawCase(password: rng.bytes(24), salt: rng.bytes(16), parameters: .closer)])
    }

    @Test func argon2CffiStringsVerifyHere() throws {
        var rng = SeededGenerator(seed: 0xCFF1)
        let passwords = (0..<4).map { _ in rng.bytes(Int.random(in: 0...24, using: &rng)) }
        let answer = try Argon2Python.run([
            "command": "phc_hash", "passwords": passwords.map { Hex.encode($0) },
            "m": 256, "t": 2, "p": 2, "length": 32, "salt_length": 16,
        ])
        let strings = try #require(answer["phc"] as? [String])
        try #require(strings.count == passwords.count)
        for (password, phc) in zip(passwords, strings) {
            #expect(phc.hasPrefix("$argon2id$v=19$m=256,t=2,p=2$"))
            #expect(try Argon2id.verify(password: password, phc: phc))
            #expect(try !Argon2id.verify(password: password + [1], phc: phc))
            #expect(try Argon2id.PHC(parsing: phc).string == phc)
        }
    }

    @Test func ourStringsVerifyInArgon2Cffi() throws {
        var rng = SeededGenerator(seed: 0x5717)
        var items: [[String: Any]] = []
        var expected: [Bool] = []
        for i in 0..<6 {
            let password = rng.bytes(Int.random(in: 0...24, using: &rng))
            let parameters = Argon2id.Parameters(
                memoryKiB: UInt32(64 * (i + 1)), iterations: UInt32(i % 3 + 1), parallelism: UInt32(i % 2 + 1),
                outputLength: [16, 32, 64][i % 3]
            )
            let phc = try Argon2id.phcHash(password: password, parameters: parameters, salt: i == 0 ? nil : rng.bytes(8 + i))
            items.append(["phc": phc, "password": Hex.encode(password)])
            expected.append(true)
            items.append(["phc": phc, "password": Hex.encode(password + [0])])
            expected.append(false)
        }
        let answer = try Argon2Python.run(["command": "phc_verify", "items": items])
        #expect(answer["results"] as? [Bool] == expected)
    }

    @Test func blake2bAndVariableHashMatchHashlib() throws {
        var rng = SeededGenerator(seed: 0xB2B)
        var blakeCases: [[String: Any]] = []
        var ours: [String] = []
        for _ in 0..<30 {
            let message = rng.bytes(Int.random(in: 0...300, using: &rng))
            let key = rng.bytes(Int.random(in: 0...64, using: &rng))
            let length = Int.random(in: 1...64, using: &rng)
            blakeCases.append(["message": Hex.encode(message), "key": Hex.encode(key), "length": length])
            ours.append(Hex.encode(try BLAKE2b.hash(message, outputLength: length, key: key)))
        }
        #expect(try Argon2Python.run(["command": "blake2b", "cases": blakeCases])["digests"] as? [String] == ours)

        var hprimeCases: [[String: Any]] = []
        var oursPrime: [String] = []
        for length in [1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 500, 1024, 1025] {
            let input = rng.bytes(Int.random(in: 0...100, using: &rng))
            hprimeCases.append(["input": Hex.encode(input), "length": length])
            oursPrime.append(Hex.encode(Argon2VariableHash.hash([input], length: length)))
        }
        #expect(try Argon2Python.run(["command": "hprime", "cases": hprimeCases])["outputs"] as? [String] == oursPrime)
    }
}
