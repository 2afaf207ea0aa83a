import Testing
@testable import KindredCrypto

@Suite struct TinkHybridTests {
    @Test func vectorFileKnownAnswers() throws {
        let vectors = try TinkHybridVectors.load()
        #expect(vectors.cases.count == 3)
        for c in vectors.cases {
            let publicKeyset = try Keyset(serialized: try Hex.decode(c.publicKeyset))
            let encrypter = try TinkHybridEncrypt(publicKeyset: publicKeyset)
            let ciphertext = try encrypter.encrypt(try Hex.decode(c.plaintext), contextInfo: try Hex.decode(c.contextInfo),
                                                   ephemeralScalar: try Hex.decode(c.ephemeralScalar), iv: try Hex.decode(c.iv))
            #expect(Hex.encode(ciphertext) == c.ciphertext, "\(c.name)")
            for serialized in [c.privateKeyset, c.privateKeyset32] {
                let decrypter = try TinkHybridDecrypt(privateKeyset: try Keyset(serialized: try Hex.decode(serialized)))
                #expect(try decrypter.decrypt(try Hex.decode(c.ciphertext), contextInfo: try Hex.decode(c.contextInfo))
                    == (try Hex.decode(c.plaintext)), "\(c.name)")
            }
        }
    }

    @Test func demKeyDerivationKnownAnswer() throws {
        let c = try TinkHybridVectors.load().cases[0]
        let recipient = try EciesAeadHkdfPrivateKey(serialized: try Keyset(serialized: try Hex.decode(c.privateKeyset)).keys[0].keyData.value)
        let ciphertext = try Hex.decode(c.ciphertext)
        let kem = ciphertext[5..<70]
        let key = try EciesHkdfKem.decapsulate(kem, recipient: recipient.privateKey, salt: [], info: try Hex.decode(c.contextInfo), keySize: 16)
        #expect(Hex.encode(key) == c.demKey)
    }

    @Test func randomRoundTripAndLayout() throws {
        let privateKeyset = Keyset.generateECIESP256()
        let encrypter = try TinkHybridEncrypt(publicKeyset: try privateKeyset.publicKeyset())
        let decrypter = try TinkHybridDecrypt(privateKeyset: privateKeyset)
        let plaintext = Array("to the other phone".utf8)
        let a = try encrypter.encrypt(plaintext, contextInfo: [1])
        let b = try encrypter.encrypt(plaintext, contextInfo: [1])
        #expect(a.count == 5 + 65 + 12 + plaintext.count + 16)
        #expect(a[0] == 0x01 && a[5] == 0x04)
        #expect(a != b)
        #expect(try decrypter.decrypt(a, contextInfo: [1]) == plaintext)
        #expect(throws: KindredCryptoError.authenticationFailed) { try decrypter.decrypt(a, contextInfo: [2]) }
        #expect(throws: KindredCryptoError.truncated(format: "tink hybrid")) { try decrypter.decrypt(Array(a[0..<97]), contextInfo: [1]) }
        var badPoint = a
        badPoint[5] = 0x02
        #expect(throws: KindredCryptoError.authenticationFailed) { try decrypter.decrypt(badPoint, contextInfo: [1]) }
        var offCurve = a
        offCurve[69] ^= 1
        #expect(throws: KindredCryptoError.authenticationFailed) { try decrypter.decrypt(offCurve, contextInfo: [1]) }
        var badTag = a
        badTag[badTag.count - 1] ^= 0x80
        #expect(throws: KindredCryptoError.authenticationFailed) { try decrypter.decrypt(badTag, contextInfo: [1]) }
        let stranger = try TinkHybridDecrypt(privateKeyset: .generateECIESP256())
        #expect(throws: KindredCryptoError.noMatchingKey) { try stranger.decrypt(a, contextInfo: [1]) }
    }

    @Test func multiKeyPrivateKeysetsDecryptByPrefixThenRaw() throws {
        let tinkKeys = Keyset.generateECIESP256()
        let rawKeys = Keyset.generateECIESP256(outputPrefixType: .raw)
        let legacyKeys = Keyset.generateECIESP256(outputPrefixType: .legacy)
        var combined = tinkKeys
        combined.keys += rawKeys.keys + legacyKeys.keys
        let decrypter = try TinkHybridDecrypt(privateKeyset: combined)
        for (single, length) in [(tinkKeys, 5), (rawKeys, 0), (legacyKeys, 5)] {
            let ciphertext = try TinkHybridEncrypt(publicKeyset: try single.publicKeyset()).encrypt([3, 1, 4], contextInfo: [])
            #expect(ciphertext.count == length + 65 + 12 + 3 + 16)
            #expect(try decrypter.decrypt(ciphertext, contextInfo: []) == [3, 1, 4])
        }
        let publicCombined = try combined.publicKeyset()
        #expect(publicCombined.keys.map(\.keyID) == combined.keys.map(\.keyID))
        let ciphertext = try TinkHybridEncrypt(publicKeyset: publicCombined).encrypt([9], contextInfo: [8])
        #expect(Array(ciphertext[0..<5]) == tinkKeys.keys[0].outputPrefix)
        #expect(try decrypter.decrypt(ciphertext, contextInfo: [8]) == [9])
        var disabled = combined
        disabled.keys[2].status = .disabled
        let legacyCiphertext = try TinkHybridEncrypt(publicKeyset: try legacyKeys.publicKeyset()).encrypt([1], contextInfo: [])
        #expect(throws: KindredCryptoError.authenticationFailed) {
            // The LEGACY key is disabled: only the RAW key is tried, on the whole ciphertext.
            try TinkHybridDecrypt(privateKeyset: disabled).decrypt(legacyCiphertext, contextInfo: [])
        }
        disabled.keys.remove(at: 1)
        #expect(throws: KindredCryptoError.noMatchingKey) {
            try TinkHybridDecrypt(privateKeyset: disabled).decrypt(legacyCiphertext, contextInfo: [])
        }
    }

    @Test func keysetKindsAreChecked() throws {
        let privateKeyset = Keyset.generateECIESP256()
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "hybrid encryption needs the public keyset, not the private one")) {
            try TinkHybridEncrypt(publicKeyset: privateKeyset)
        }
        #expect(throws: KindredCryptoError.unsupportedKeyType(typeURL: EciesAeadHkdfPublicKey.typeURL)) {
            try TinkHybridDecrypt(privateKeyset: try privateKeyset.publicKeyset())
        }
        #expect(throws: KindredCryptoError.unsupportedKeyType(typeURL: AesGcmKey.typeURL)) {
            try TinkHybridDecrypt(privateKeyset: .generateAES256GCM())
        }
        #expect(throws: KindredCryptoError.unsupportedKeyType(typeURL: AesGcmKey.typeURL)) { try Keyset.generateAES256GCM().publicKeyset() }
        #expect(throws: KindredCryptoError.unsupportedKeyType(typeURL: EciesAeadHkdfPrivateKey.typeURL)) {
            try TinkAEAD(keyset: privateKeyset)
        }
        var noPrimary = try privateKeyset.publicKeyset()
        noPrimary.primaryKeyID &+= 1
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "no key has the primary key id")) { try TinkHybridEncrypt(publicKeyset: noPrimary) }
    }
}
