import Testing

/// `kindred crypto argon2id`, checked against Debian's reference `argon2` command's output.
@Suite struct CryptoArgon2CommandTests {
    /// `echo -n password | argon2 somesaltsalt -id -t 2 -k 64 -p 1 -l 32 -r` and `-e`.
    static let referenceHex = "3b5780d2fb6a066d86d540ce71944a1431370d562fe2c18116e6b16b5b958a8e"
    static let referencePHC = "$argon2id$v=19$m=64,t=2,p=1$c29tZXNhbHRzYWx0$O1eA0vtqBm2G1UDOcZRKFDE3DVYv4sGBFuaxa1uVio4"

    @Test func hashMatchesTheReferenceImplementation() throws {
        let result = try KindredProcess.run(["crypto", "argon2id", "--salt-hex", "736f6d6573616c7473616c74",
                                             "-t", "2", "-m", "64", "-p", "1", "-l", "32"], stdinText: "password")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.trimmingCharacters(in: .newlines) == Self.referenceHex)
    }

    @Test func verifiesTheReferencePHCString() throws {
        let good = try KindredProcess.run(["crypto", "argon2id", "verify", Self.referencePHC], stdinText: "password")
        #expect(good.status == 0, "\(good.stderr)")
        let bad = try KindredProcess.run(["crypto", "argon2id", "verify", Self.referencePHC], stdinText: "passw0rd")
        #expect(bad.status != 0)
        let malformed = try KindredProcess.run(["crypto", "argon2id", "verify", "$argon2id$v=19$m=64"], stdinText: "password")
        #expect(malformed.status != 0)
        #expect(malformed.stderr.split(separator: "\n").count == 1)
    }

    @Test func refusesParametersBeyondTheAlgorithm() throws {
        let result = try KindredProcess.run(["crypto", "argon2id", "--salt-hex", "00", "-t", "1", "-m", "64", "-p", "1", "-l", "32"],
                                            stdinText: "password")
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
