import Testing
@testable import KindredCrypto

@Suite struct StreamingAEADTests {
    typealias F = StreamingFixtures

    /// Tink's `AesGcmHkdfStreaming.expectedCiphertextSize`, the oracle for ciphertext lengths.
    static func expectedCiphertextSize(_ plaintext: Int, segment: Int, header: Int = 40) -> Int {
        let plaintextSegment = segment - 16
        let full = (plaintext + header) / plaintextSegment
        let rest = (plaintext + header) % plaintextSegment
        return full * segment + (rest > 0 ? rest + 16 : 0)
    }

    /// Sizes around every boundary of the first three segments.
    static func boundarySizes(first: Int, segment: Int) -> [Int] {
        [0, 1, first - 1, first, first + 1, first + segment - 1, first + segment, first + segment + 1,
         first + 2 * segment, first + 2 * segment + 1]
    }

    @Test func smallSegmentsRoundTripAtEveryBoundaryWithAnyChunking() throws {
        let keyset = F.smallKeyset()
        let aead = try TinkStreamingAEAD(keyset: keyset)
        let key = try F.key(of: keyset)
        let aad = Array("video:42".utf8)
        for size in Self.boundarySizes(first: 200, segment: 240) + [1000] {
            let plaintext = F.pattern(size, offset: size)
            let fixed = StreamingEncrypter(key: key, salt: F.pattern(32, offset: 7), noncePrefix: F.pattern(7), associatedData: aad)
            let whole = try F.encrypt(fixed, plaintext, sizes: [0])
            #expect(whole.count == Self.expectedCiphertextSize(size, segment: 256), "size \(size)")
            for sizes in [[1], [3, 5, 7], [17, 250, 1], [256], [0]] {
                #expect(try F.encrypt(fixed, plaintext, sizes: sizes) == whole, "size \(size), chunks \(sizes)")
                #expect(try F.decrypt(aead.makeDecrypter(associatedData: aad), whole, sizes: sizes) == plaintext,
                        "size \(size), chunks \(sizes)")
            }
            #expect(try aead.decrypt(aead.encrypt(plaintext, associatedData: aad), associatedData: aad) == plaintext)
        }
    }

    @Test func oneMebibyteSegmentsRoundTripAtEveryBoundary() throws {
        let keyset = Keyset.generateAES256GCMHKDF1MB()
        let aead = try TinkStreamingAEAD(keyset: keyset)
        let key = try F.key(of: keyset)
        let sizes = Self.boundarySizes(first: F.firstPlaintext1MB, segment: F.plaintext1MB).prefix(8)
        for size in sizes {
            let plaintext = F.pattern(size, offset: 3)
            let fixed = StreamingEncrypter(key: key, salt: F.pattern(32), noncePrefix: F.pattern(7), associatedData: [])
            let whole = try F.encrypt(fixed, plaintext, sizes: [0])
            #expect(whole.count == Self.expectedCiphertextSize(size, segment: 1 << 20), "size \(size)")
            for chunking in [[65536], [7919, 1], [0]] {
                #expect(try F.encrypt(fixed, plaintext, sizes: chunking) == whole, "size \(size), chunks \(chunking)")
                #expect(try F.decrypt(aead.makeDecrypter(associatedData: []), whole, sizes: chunking) == plaintext)
            }
        }
    }

    @Test func oneByteUpdatesAcrossAOneMebibyteBoundary() throws {
        let aead = try TinkStreamingAEAD(keyset: .generateAES256GCMHKDF1MB())
        let plaintext = F.pattern(F.firstPlaintext1MB + 5)
        let ciphertext = try F.encrypt(aead.makeEncrypter(associatedData: []), plaintext, sizes: [1])
        #expect(ciphertext.count == Self.expectedCiphertextSize(plaintext.count, segment: 1 << 20))
        #expect(try F.decrypt(aead.makeDecrypter(associatedData: []), ciphertext, sizes: [1]) == plaintext)
    }

    @Test func encrypterEmitsHeaderThenOnlyWholeSegments() throws {
        let aead = try TinkStreamingAEAD(keyset: F.smallKeyset())
        var encrypter = try aead.makeEncrypter(associatedData: [])
        let header = try encrypter.update(F.pattern(200))
        #expect(header.count == 40 && header[0] == 40)
        let first = try encrypter.update([0xff])
        #expect(first.count == 256 - 40)
        #expect(try encrypter.update(F.pattern(239)) == [])
        let second = try encrypter.update([0xff])
        #expect(second.count == 256)
        let last = try encrypter.finish()
        #expect(last.count == 1 + 16)
        #expect(throws: KindredCryptoError.invalidParameters("streaming encrypter used after finish()")) { try encrypter.finish() }

        var empty = try aead.makeEncrypter(associatedData: [])
        let only = try empty.finish()
        #expect(only.count == 56 && only[0] == 40)
        #expect(try aead.decrypt(only, associatedData: []) == [])
    }

    @Test func decrypterHoldsBackASegmentUntilItKnowsWhetherItIsTheLast() throws {
        let aead = try TinkStreamingAEAD(keyset: F.smallKeyset())
        let plaintext = F.pattern(200 + 240 + 10)
        let ciphertext = try aead.encrypt(plaintext, associatedData: [])
        var decrypter = try aead.makeDecrypter(associatedData: [])
        #expect(try decrypter.update(Array(ciphertext[..<256])) == [])
        #expect(try decrypter.update([ciphertext[256]]) == Array(plaintext[..<200]))
        #expect(try decrypter.update(Array(ciphertext[257..<512])) == [])
        #expect(try decrypter.update(Array(ciphertext[512...])) == Array(plaintext[200..<440]))
        #expect(try decrypter.finish() == Array(plaintext[440...]))
        #expect(throws: KindredCryptoError.invalidParameters("streaming decrypter used after finish()")) { try decrypter.update([]) }
    }

    @Test func freshSaltAndNoncePrefixForEveryStream() throws {
        let aead = try TinkStreamingAEAD(keyset: .generateAES256GCMHKDF1MB())
        let a = try aead.encrypt(Array("same".utf8), associatedData: [])
        let b = try aead.encrypt(Array("same".utf8), associatedData: [])
        #expect(a.count == 60 && b.count == 60)
        #expect(a[1..<33] != b[1..<33])
        #expect(a[33..<40] != b[33..<40])
    }

    @Test func generatedKeysetMatchesTinksTemplate() throws {
        let keyset = Keyset.generateAES256GCMHKDF1MB()
        #expect(keyset.keys.count == 1)
        let entry = keyset.keys[0]
        #expect(keyset.primaryKeyID == entry.keyID && entry.keyID != 0)
        #expect(entry.status == .enabled && entry.outputPrefixType == .raw)
        #expect(entry.keyData.typeURL == "type.googleapis.com/google.crypto.tink.AesGcmHkdfStreamingKey")
        #expect(entry.keyData.keyMaterialType == .symmetric)
        // params {1: 1048576, 2: 32, 3: SHA256}, then key_value (32 bytes); version 0 omitted.
        let value = entry.keyData.value
        #expect(Array(value[..<12]) == [0x12, 0x08, 0x08, 0x80, 0x80, 0x40, 0x10, 0x20, 0x18, 0x03, 0x1a, 0x20])
        #expect(value.count == 44)
        #expect(try Keyset(serialized: keyset.serialized()) == keyset)
    }

    @Test func decryptsWithAnyEnabledKeyOfAMultiKeyKeyset() throws {
        let small = F.smallKeyset()
        let big = Keyset.generateAES256GCMHKDF1MB()
        let aes128 = Keyset.generateAesGcmHkdfStreaming(.init(ciphertextSegmentSize: 4096, derivedKeySize: 16, hkdfHashType: .sha1), keySize: 16)
        var combined = Keyset(primaryKeyID: small.primaryKeyID, keys: small.keys + big.keys + aes128.keys)
        let aead = try TinkStreamingAEAD(keyset: combined)
        for single in [small, big, aes128] {
            let plaintext = F.pattern(5000)
            let ciphertext = try TinkStreamingAEAD(keyset: single).encrypt(plaintext, associatedData: [1])
            #expect(try aead.decrypt(ciphertext, associatedData: [1]) == plaintext)
            #expect(try F.decrypt(aead.makeDecrypter(associatedData: [1]), ciphertext, sizes: [1, 100, 1000]) == plaintext)
        }
        // The primary encrypts.
        let fromCombined = try aead.encrypt([1, 2, 3], associatedData: [])
        #expect(try TinkStreamingAEAD(keyset: small).decrypt(fromCombined, associatedData: []) == [1, 2, 3])
        // A disabled key no longer decrypts.
        combined.keys[1].status = .disabled
        let underBig = try TinkStreamingAEAD(keyset: big).encrypt([9], associatedData: [])
        #expect(throws: KindredCryptoError.authenticationFailed) {
            try TinkStreamingAEAD(keyset: combined).decrypt(underBig, associatedData: [])
        }
    }
}
