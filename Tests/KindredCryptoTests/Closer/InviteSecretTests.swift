import Testing
@testable import KindredCrypto

@Suite struct InviteSecretTests {
    @Test func displayAndParse() throws {
        var rng = SeededGenerator(seed: 3)
        let secret = InviteSecret.generate(using: &rng)
        #expect(secret.symbols.utf8.count == 13)
        #expect(secret.symbols.utf8.allSatisfy { Crockford.symbols.contains($0) })
        let shown = secret.display
        #expect(shown.utf8.count == 16 && Array(shown)[5] == "-" && Array(shown)[11] == "-")
        #expect(try InviteSecret(parsing: shown) == secret)
        #expect(try InviteSecret(parsing: shown.lowercased().replacingOccurrences(of: "-", with: " ")) == secret)
        #expect(try InviteSecret(parsing: "  " + shown.replacingOccurrences(of: "-", with: "") + "\n") == secret)
        #expect(secret.description == "InviteSecret(redacted)")
        #expect(InviteSecret.generate() != InviteSecret.generate())
    }

    @Test func lookAlikesAreRead() throws {
        // 13 data symbols using 0 and 1, typed with O, I and L.
        let data = "0123456789ABC"
        let check = String(decoding: [InviteSecret.checkSymbol(for: data)], as: UTF8.self)
        #expect(try InviteSecret(parsing: "OI23456789abc" + check.lowercased()).symbols == data)
        #expect(try InviteSecret(parsing: "ol23456789ABC" + check).symbols == data)
    }

    @Test func errorsNameTheProblem() throws {
        #expect(throws: KindredCryptoError.malformed(format: "invite secret", reason: "character 3 is not a letter or digit of the invite alphabet")) {
            try InviteSecret(parsing: "12U4567890ABCD")
        }
        #expect(throws: KindredCryptoError.malformed(format: "invite secret", reason: "expected 14 characters, got 13")) {
            try InviteSecret(parsing: "1234567890ABC")
        }
        let data = "0123456789ABC"
        let check = InviteSecret.checkSymbol(for: data)
        let wrong = Crockford.symbols[(Int(Crockford.value(of: check) ?? 0) + 1) % 32]
        #expect(throws: KindredCryptoError.malformed(format: "invite secret", reason: "check character does not match (a typo?)")) {
            try InviteSecret(parsing: data + String(decoding: [wrong], as: UTF8.self))
        }
    }

    @Test func checkSymbolCatchesMostSingleTypos() throws {
        var rng = SeededGenerator(seed: 11)
        var caught = 0, total = 0
        for _ in 0..<200 {
            let display = Array(InviteSecret.generate(using: &rng).display.utf8.filter { $0 != UInt8(ascii: "-") })
            for position in 0..<13 {
                var typo = display
                typo[position] = Crockford.symbols[(Int(Crockford.value(of: typo[position]) ?? 0) + Int.random(in: 1...31, using: &rng)) % 32]
                total += 1
                if (try? InviteSecret(parsing: String(decoding: typo, as: UTF8.self))) == nil { caught += 1 }
            }
        }
        // Expected 31/32 ≈ 96.9 %.
        #expect(Double(caught) / Double(total) > 0.93)
    }

    @Test func codesAndShareStrings() throws {
        for _ in 0..<100 {
            let code = InviteCode.generate()
            #expect(CloserWireFormat.isInviteCode(code))
            #expect(try InviteCode.canonicalize(code.lowercased()) == code)
        }
        #expect(try InviteCode.canonicalize("ab-c 0o1") == "ABC001")
        #expect(throws: KindredCryptoError.malformed(format: "invite code", reason: "expected 6 characters, got 5")) { try InviteCode.canonicalize("ABCDE") }
        #expect(throws: KindredCryptoError.malformed(format: "invite code", reason: "character 2 is not a letter or digit of the invite alphabet")) {
            try InviteCode.canonicalize("AU")
        }
        var rng = SeededGenerator(seed: 4)
        let share = try InviteShare(code: "7K3QXM", secret: .generate(using: &rng))
        #expect(share.text.hasPrefix("7K3QXM-") && share.text.utf8.count == 23)
        #expect(try InviteShare(parsing: share.text) == share)
        #expect(try InviteShare(parsing: share.text.lowercased().replacingOccurrences(of: "-", with: "  ")) == share)
        #expect(throws: KindredCryptoError.malformed(format: "invite share", reason: "expected 20 characters (code and secret), got 6")) {
            try InviteShare(parsing: "7K3QXM")
        }
        #expect(throws: KindredCryptoError.malformed(format: "invite code", reason: "not in canonical upper-case form")) {
            try InviteShare(code: "7k3qxm", secret: .generate(using: &rng))
        }
    }

    @Test func mutatedShareStringsGiveTypedErrors() throws {
        var rng = SeededGenerator(seed: 0x5348_4152_45)
        let share = try InviteShare(code: InviteCode.generate(), secret: .generate(using: &rng))
        var accepted = 0
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(share.text, using: &rng)
            do {
                let parsed = try InviteShare(parsing: mutated)
                accepted += 1
                #expect(CloserWireFormat.isInviteCode(parsed.code))
            } catch {
                switch error {
                case .malformed(format: "invite share", _), .malformed(format: "invite secret", _): continue
                default: Issue.record("unexpected \(error)")
                }
            }
        }
        // Only mutations that keep the symbols (e.g. touching a hyphen, or a case change) parse.
        #expect(accepted < 1_500)
    }

    /// The check symbol agrees with the Python reference.
    @Test(.enabled(if: CloserReference.enabled)) func checkSymbolMatchesPython() throws {
        var rng = SeededGenerator(seed: 8)
        for _ in 0..<3 {
            let secret = InviteSecret.generate(using: &rng)
            let result = try CloserReference.object(["op": "invite-check", "secret": secret.symbols])
            #expect(result["check"] as? String == String(decoding: [InviteSecret.checkSymbol(for: secret.symbols)], as: UTF8.self))
        }
    }
}
