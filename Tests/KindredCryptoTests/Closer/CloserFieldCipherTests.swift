import Testing
@testable import KindredCrypto

@Suite struct CloserFieldCipherTests {
    static func expectedErrors(_ error: KindredCryptoError) -> Bool {
        switch error {
        case .wrongPrefix(format: "enc:v1", expected: "enc:v1:"), .truncated(format: "enc:v1"), .truncated(format: "tink aead"),
             .malformed(format: "enc:v1", _), .tooLong(format: "enc:v1", _), .authenticationFailed, .noMatchingKey: return true
        default: return false
        }
    }

    @Test func knownAnswer() throws {
        let vectors = try CloserVectors.load()
        let v = vectors.enc
        let cipher = try CloserFieldCipher(coupleKeyset: vectors.coupleKeyset())
        #expect(try cipher.encrypt(bytes: Array(v.plaintext.utf8), associatedData: Array(v.coupleId.utf8), iv: Hex.decode(v.iv)) == v.ciphertext)
        #expect(try cipher.decryptText(v.ciphertext, coupleId: v.coupleId) == v.plaintext)
        #expect(try cipher.decrypt(v.ciphertext, coupleId: v.coupleId) == Array(v.plaintext.utf8))
    }

    @Test func roundTripsAndAlwaysMatchesTheRule() throws {
        let cipher = try CloserFieldCipher(coupleKeyset: .generateAES256GCM())
        var rng = SeededGenerator(seed: 21)
        for length in 0..<400 {
            let bytes = rng.bytes(length)
            let wire = try cipher.encrypt(bytes: bytes, coupleId: "couple-1")
            #expect(CloserWireFormat.isCiphertext(wire), "\(wire)")
            #expect(try cipher.decrypt(wire, coupleId: "couple-1") == bytes)
        }
        let text = try cipher.encrypt("Sunday brunch", coupleId: "c")
        #expect(try cipher.decryptText(text, coupleId: "c") == "Sunday brunch")
    }

    @Test func wrongCoupleKeyOrPlaintextEncoding() throws {
        let keyset = Keyset.generateAES256GCM()
        let cipher = try CloserFieldCipher(coupleKeyset: keyset)
        let wire = try cipher.encrypt("hello", coupleId: "couple-1")
        #expect(throws: KindredCryptoError.authenticationFailed) { try cipher.decrypt(wire, coupleId: "couple-2") }
        #expect(throws: KindredCryptoError.noMatchingKey) { try CloserFieldCipher(coupleKeyset: .generateAES256GCM()).decrypt(wire, coupleId: "couple-1") }
        // After rotation the old key still decrypts.
        var rotated = keyset
        rotated.addAES256GCMKey(makePrimary: true)
        #expect(try CloserFieldCipher(coupleKeyset: rotated).decryptText(wire, coupleId: "couple-1") == "hello")
        let binary = try cipher.encrypt(bytes: [0xff, 0xfe], coupleId: "c")
        #expect(throws: KindredCryptoError.malformed(format: "enc:v1", reason: "plaintext is not UTF-8")) { try cipher.decryptText(binary, coupleId: "c") }
        #expect(throws: KindredCryptoError.tooLong(format: "enc:v1", limit: 65_536)) {
            try cipher.encrypt(bytes: [UInt8](repeating: 0, count: 49_200), coupleId: "c")
        }
        #expect(throws: KindredCryptoError.wrongPrefix(format: "enc:v1", expected: "enc:v1:")) { try cipher.decrypt("sealed:v1:AAAA", coupleId: "c") }
    }

    @Test func mutatedCiphertextsGiveTypedErrors() throws {
        let vectors = try CloserVectors.load()
        let cipher = try CloserFieldCipher(coupleKeyset: vectors.coupleKeyset())
        var rng = SeededGenerator(seed: 0x454E_4331)
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(vectors.enc.ciphertext, using: &rng)
            do {
                _ = try cipher.decrypt(mutated, coupleId: vectors.enc.coupleId)
                Issue.record("a mutated ciphertext decrypted: \(mutated)")
            } catch {
                if !Self.expectedErrors(error) { Issue.record("unexpected \(error) for \(mutated)") }
            }
        }
    }

    /// Python Tink decrypts what Swift encrypts, and the other way round.
    @Test(.enabled(if: CloserReference.enabled)) func interopWithPythonTink() throws {
        let keyset = Keyset.generateAES256GCM()
        let cipher = try CloserFieldCipher(coupleKeyset: keyset)
        let plaintext = Array("Our anniversary ❤️".utf8)
        let mine = try cipher.encrypt(bytes: plaintext, coupleId: "couple-9")
        let decrypted = try CloserReference.object(["op": "enc-decrypt", "keyset": Hex.encode(keyset.serialized()),
                                                    "ciphertext": mine, "aad": "couple-9"])
        #expect(decrypted["plaintext"] as? String == Hex.encode(plaintext))
        let theirs = try CloserReference.object(["op": "enc-encrypt", "keyset": Hex.encode(keyset.serialized()),
                                                 "plaintext": Hex.encode(plaintext), "aad": "couple-9"])
        let wire = try #require(theirs["ciphertext"] as? String)
        #expect(CloserWireFormat.isCiphertext(wire))
        #expect(try cipher.decrypt(wire, coupleId: "couple-9") == plaintext)
    }
}
