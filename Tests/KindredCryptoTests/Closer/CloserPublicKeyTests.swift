import Testing
@testable import KindredCrypto

@Suite struct CloserPublicKeyTests {
    @Test func encodesAndDecodesPublicKeysets() throws {
        for prefix in [Keyset.OutputPrefixType.tink, .raw] {
            for _ in 0..<20 {
                let publicKeyset = try Keyset.generateECIESP256(outputPrefixType: prefix).publicKeyset()
                let wire = try CloserPublicKey.encode(publicKeyset)
                #expect(CloserWireFormat.isPublicKey(wire), "\(wire)")
                #expect(try CloserPublicKey.decode(wire) == publicKeyset)
            }
        }
    }

    @Test func refusesPrivateAndNonECIESKeysets() throws {
        let privateKeyset = Keyset.generateECIESP256()
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "a published key must hold only public key material")) {
            try CloserPublicKey.encode(privateKeyset)
        }
        // A private keyset dressed as pub:v1 is refused on decode too.
        let disguised = "pub:v1:" + Base64.encode(privateKeyset.serialized(), alphabet: .urlSafeNoPadding)
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "a published key must hold only public key material")) {
            try CloserPublicKey.decode(disguised)
        }
        var aead = Keyset.generateAES256GCM()
        aead.keys[0].keyData.keyMaterialType = .asymmetricPublic
        let wrongType = "pub:v1:" + Base64.encode(aead.serialized() + aead.serialized(), alphabet: .urlSafeNoPadding)
        #expect(throws: KindredCryptoError.self) { try CloserPublicKey.decode(wrongType) }
        #expect(throws: KindredCryptoError.truncated(format: "pub:v1")) { try CloserPublicKey.decode("pub:v1:AAAA") }
    }

    @Test func mutatedPublicKeysGiveTypedErrors() throws {
        let wire = try CloserPublicKey.encode(Keyset.generateECIESP256().publicKeyset())
        var rng = SeededGenerator(seed: 0x5055_4231)
        var accepted = 0
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(wire, using: &rng)
            do {
                // A mutation inside the protobuf may still be a valid public key (e.g. a changed key id).
                let keyset = try CloserPublicKey.decode(mutated)
                accepted += 1
                #expect(keyset.keys.allSatisfy { $0.keyData.keyMaterialType == .asymmetricPublic })
            } catch {
                switch error {
                case .wrongPrefix, .truncated, .malformed, .tooLong, .invalidKeyset, .unsupportedKeyType, .invalidPublicKey,
                     .invalidKeySize, .invalidParameters: continue
                default: Issue.record("unexpected \(error)")
                }
            }
        }
        #expect(accepted < 2_000)
    }
}
