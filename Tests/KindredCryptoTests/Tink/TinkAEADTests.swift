import Testing
@testable import KindredCrypto

@Suite struct TinkAEADTests {
    private let aesGcmURL = "type.googleapis.com/google.crypto.tink.AesGcmKey"

    @Test func briefKnownAnswer() throws {
        let keyset = try Keyset.aes256GCM(key: Array(0...31), keyID: 0x0102_0304)
        let aead = try TinkAEAD(keyset: keyset)
        let ciphertext = try aead.encrypt(Array("hello".utf8), associatedData: Array("ad".utf8), iv: Array(0...11))
        #expect(Hex.encode(ciphertext) == "0101020304000102030405060708090a0b2f67ba77aa38215d6806453a27a3336e1274817eb9")
        #expect(try aead.decrypt(ciphertext, associatedData: Array("ad".utf8)) == Array("hello".utf8))
    }

    @Test func vectorFileKnownAnswers() throws {
        let vectors = try TinkAEADVectors.load()
        #expect(vectors.cases.count == 5)
        for c in vectors.cases {
            let keyset = try Keyset(serialized: try Hex.decode(c.keyset))
            #expect(keyset.primaryKeyID == c.keyID, "\(c.name)")
            #expect(keyset.keys.first?.outputPrefixType == Keyset.OutputPrefixType(vectorName: c.outputPrefixType), "\(c.name)")
            let aead = try TinkAEAD(keyset: keyset)
            let encrypted = try aead.encrypt(try Hex.decode(c.plaintext), associatedData: try Hex.decode(c.associatedData),
                                             iv: try Hex.decode(c.iv))
            #expect(Hex.encode(encrypted) == c.ciphertext, "\(c.name)")
            #expect(try aead.decrypt(try Hex.decode(c.ciphertext), associatedData: try Hex.decode(c.associatedData))
                == (try Hex.decode(c.plaintext)), "\(c.name)")
        }
    }

    @Test func randomIVRoundTripAndLayout() throws {
        let aead = try TinkAEAD(keyset: .generateAES256GCM())
        let plaintext = Array("Kindred".utf8)
        let a = try aead.encrypt(plaintext, associatedData: [1, 2])
        let b = try aead.encrypt(plaintext, associatedData: [1, 2])
        #expect(a.count == 5 + 12 + plaintext.count + 16)
        #expect(a[0] == 0x01)
        #expect(a != b)
        #expect(try aead.decrypt(a, associatedData: [1, 2]) == plaintext)
        let raw = try TinkAEAD(keyset: .generateAES256GCM(outputPrefixType: .raw))
        #expect(try raw.encrypt(plaintext, associatedData: []).count == 12 + plaintext.count + 16)
    }

    @Test func wrongInputsGiveTypedErrors() throws {
        let keyset = try Keyset.aes256GCM(key: Array(0...31), keyID: 7)
        let aead = try TinkAEAD(keyset: keyset)
        let ciphertext = try aead.encrypt([1, 2, 3], associatedData: [9])
        #expect(throws: KindredCryptoError.authenticationFailed) { try aead.decrypt(ciphertext, associatedData: [8]) }
        var flipped = ciphertext
        flipped[flipped.count - 1] ^= 1
        #expect(throws: KindredCryptoError.authenticationFailed) { try aead.decrypt(flipped, associatedData: [9]) }
        #expect(throws: KindredCryptoError.truncated(format: "tink aead")) { try aead.decrypt(Array(ciphertext[0..<20]), associatedData: [9]) }
        #expect(throws: KindredCryptoError.noMatchingKey) { try aead.decrypt(Array(ciphertext[0..<5]), associatedData: [9]) }
        let other = try TinkAEAD(keyset: try Keyset.aes256GCM(key: Array(0...31), keyID: 8))
        #expect(throws: KindredCryptoError.noMatchingKey) { try other.decrypt(ciphertext, associatedData: [9]) }
        let rawOther = try TinkAEAD(keyset: try Keyset.aes256GCM(key: Array(0...31), keyID: 8, outputPrefixType: .raw))
        #expect(throws: KindredCryptoError.authenticationFailed) { try rawOther.decrypt(ciphertext, associatedData: [9]) }
    }

    @Test func legacyAndCrunchyPrefixes() throws {
        for type in [Keyset.OutputPrefixType.legacy, .crunchy] {
            let keyset = try Keyset.aes256GCM(key: Array(0...31), keyID: 0x0a0b_0c0d, outputPrefixType: type)
            let aead = try TinkAEAD(keyset: keyset)
            let ciphertext = try aead.encrypt([5], associatedData: [], iv: Array(repeating: 0, count: 12))
            #expect(Array(ciphertext[0..<5]) == [0x00, 0x0a, 0x0b, 0x0c, 0x0d])
            #expect(try aead.decrypt(ciphertext, associatedData: []) == [5])
        }
    }

    @Test func rotationDecryptsOldAndNewCiphertexts() throws {
        var keyset = Keyset.generateAES256GCM()
        let firstID = keyset.primaryKeyID
        let old = try TinkAEAD(keyset: keyset).encrypt([1], associatedData: [])
        let secondID = keyset.addAES256GCMKey(outputPrefixType: .tink, makePrimary: false)
        #expect(keyset.primaryKeyID == firstID)
        let rawID = keyset.addAES256GCMKey(outputPrefixType: .raw, makePrimary: true)
        #expect(keyset.primaryKeyID == rawID)
        #expect(Set([firstID, secondID, rawID]).count == 3)
        let aead = try TinkAEAD(keyset: keyset)
        let new = try aead.encrypt([2], associatedData: [])
        #expect(new.count == 12 + 1 + 16)
        #expect(try aead.decrypt(old, associatedData: []) == [1])
        #expect(try aead.decrypt(new, associatedData: []) == [2])
        let roundTripped = try Keyset(serialized: keyset.serialized())
        #expect(roundTripped == keyset)
        #expect(try TinkAEAD(keyset: roundTripped).decrypt(old, associatedData: []) == [1])
    }

    @Test func prefixMatchFallsBackToRawKeys() throws {
        // A RAW ciphertext whose IV happens to start with a TINK key's prefix: Tink tries the
        // TINK key first, fails, then the RAW key on the whole ciphertext.
        let tinkKey = try Keyset.aes256GCM(key: Array(0...31), keyID: 0x0102_0304).keys[0]
        let rawKey = try Keyset.aes256GCM(key: Array(32...63), keyID: 99, outputPrefixType: .raw).keys[0]
        let keyset = Keyset(primaryKeyID: 99, keys: [tinkKey, rawKey])
        let aead = try TinkAEAD(keyset: keyset)
        let ciphertext = try aead.encrypt([7, 7], associatedData: [], iv: [0x01, 0x01, 0x02, 0x03, 0x04, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(ciphertext[0..<5]) == tinkKey.outputPrefix)
        #expect(try aead.decrypt(ciphertext, associatedData: []) == [7, 7])
    }

    @Test func disabledKeysAreNotUsed() throws {
        var keyset = Keyset.generateAES256GCM()
        let oldID = keyset.primaryKeyID
        let old = try TinkAEAD(keyset: keyset).encrypt([1], associatedData: [])
        keyset.addAES256GCMKey(outputPrefixType: .tink, makePrimary: true)
        keyset.keys[0].status = .disabled
        let aead = try TinkAEAD(keyset: keyset)
        #expect(throws: KindredCryptoError.noMatchingKey) { try aead.decrypt(old, associatedData: []) }
        keyset.primaryKeyID = oldID
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "the primary key is not enabled")) { try TinkAEAD(keyset: keyset) }
        keyset.keys[0].status = .destroyed
        keyset.keys[1].status = .disabled
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "the keyset has no enabled key")) { try TinkAEAD(keyset: keyset) }
    }

    @Test func invalidKeysetsAreRefused() throws {
        let good = try Keyset.aes256GCM(key: Array(0...31), keyID: 5)
        var missingPrimary = good
        missingPrimary.primaryKeyID = 6
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "no key has the primary key id")) { try TinkAEAD(keyset: missingPrimary) }
        var duplicate = good
        duplicate.keys.append(good.keys[0])
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "several enabled keys share the primary key id")) { try TinkAEAD(keyset: duplicate) }
        var unknownPrefix = good
        unknownPrefix.keys[0].outputPrefixType = .unknown
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "key 5 has an unknown output prefix type")) { try TinkAEAD(keyset: unknownPrefix) }
        var otherType = good
        otherType.keys[0].keyData.typeURL = "type.googleapis.com/google.crypto.tink.ChaCha20Poly1305Key"
        #expect(throws: KindredCryptoError.unsupportedKeyType(typeURL: "type.googleapis.com/google.crypto.tink.ChaCha20Poly1305Key")) {
            try TinkAEAD(keyset: otherType)
        }
        var shortKey = good
        shortKey.keys[0].keyData.value = [0x1a, 24] + Array(repeating: 1, count: 24)
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 24)) { try TinkAEAD(keyset: shortKey) }
        var versioned = good
        versioned.keys[0].keyData.value = [0x08, 0x01] + good.keys[0].keyData.value
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "AesGcmKey version 1 is not supported")) { try TinkAEAD(keyset: versioned) }
        var garbled = good
        garbled.keys[0].keyData.value = [0x1a, 40, 1, 2]
        #expect(throws: KindredCryptoError.truncated(format: "AesGcmKey")) { try TinkAEAD(keyset: garbled) }
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 16)) { try Keyset.aes256GCM(key: Array(0...15), keyID: 1) }
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "output prefix type UNKNOWN")) {
            try Keyset.aes256GCM(key: Array(0...31), keyID: 1, outputPrefixType: .unknown)
        }
    }

    @Test func aes128KeysDecryptAndEncrypt() throws {
        var keyset = try Keyset.aes256GCM(key: Array(0...31), keyID: 3)
        keyset.keys[0].keyData.value = [0x1a, 16] + Array(0...15)
        let aead = try TinkAEAD(keyset: keyset)
        let ciphertext = try aead.encrypt([42], associatedData: [])
        #expect(try aead.decrypt(ciphertext, associatedData: []) == [42])
        #expect(keyset.keys[0].keyData.typeURL == aesGcmURL)
    }
}
