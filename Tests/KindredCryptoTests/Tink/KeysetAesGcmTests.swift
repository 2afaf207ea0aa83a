import Testing
@testable import KindredCrypto

@Suite struct KeysetAesGcmTests {
    @Test func importedKeysetMatchesProtobufJavaBytes() throws {
        // The vector keysets were serialized by protobuf (tink.proto) in make_tink_vectors.py.
        for c in try TinkAEADVectors.load().cases where c.key.count == 64 {
            let keyset = try Keyset.aes256GCM(key: try Hex.decode(c.key), keyID: c.keyID,
                                              outputPrefixType: Keyset.OutputPrefixType(vectorName: c.outputPrefixType))
            #expect(Hex.encode(keyset.serialized()) == c.keyset, "\(c.name)")
            #expect(try Keyset(serialized: try Hex.decode(c.keyset)) == keyset, "\(c.name)")
        }
    }

    @Test func knownAnswerKeysetExactBytes() throws {
        let keyset = try Keyset.aes256GCM(key: Array(0...31), keyID: 0x0102_0304)
        let expected = "0884868808" + "1263" + "0a58" + "0a30" + Hex.encode("type.googleapis.com/google.crypto.tink.AesGcmKey".utf8)
            + "1222" + "1a20" + Hex.encode(Array(0...31) as [UInt8]) + "1801" + "1001" + "1884868808" + "2001"
        #expect(Hex.encode(keyset.serialized()) == expected)
    }

    @Test func generatedKeysetShape() throws {
        for type in [Keyset.OutputPrefixType.tink, .raw] {
            let keyset = Keyset.generateAES256GCM(outputPrefixType: type)
            #expect(keyset.keys.count == 1)
            let key = keyset.keys[0]
            #expect(key.keyID == keyset.primaryKeyID)
            #expect((1...0x7fff_ffff).contains(key.keyID))
            #expect(key.status == .enabled)
            #expect(key.outputPrefixType == type)
            #expect(key.keyData.typeURL == "type.googleapis.com/google.crypto.tink.AesGcmKey")
            #expect(key.keyData.keyMaterialType == .symmetric)
            #expect(key.keyData.value.count == 34)
            #expect(Array(key.keyData.value[0..<2]) == [0x1a, 0x20])
            #expect(try Keyset(serialized: keyset.serialized()) == keyset)
        }
        #expect(Keyset.generateAES256GCM().keys[0].keyData.value != Keyset.generateAES256GCM().keys[0].keyData.value)
    }

    @Test func addingKeysKeepsIDsUnique() {
        var keyset = Keyset.generateAES256GCM()
        var ids: Set<UInt32> = [keyset.primaryKeyID]
        for i in 0..<20 {
            let id = keyset.addAES256GCMKey(outputPrefixType: i.isMultiple(of: 2) ? .tink : .raw, makePrimary: i == 19)
            ids.insert(id)
        }
        #expect(ids.count == 21)
        #expect(keyset.keys.count == 21)
        #expect(keyset.primaryKeyID == keyset.keys[20].keyID)
    }

    @Test func aesGcmKeyProtoCodec() throws {
        let key = try AesGcmKey(serialized: [0x1a, 16] + Array(repeating: 7, count: 16))
        #expect(key.keyValue == Array(repeating: 7, count: 16))
        #expect(key.serialized() == [0x1a, 16] + Array(repeating: 7, count: 16))
        // Unknown fields are skipped and an explicit version 0 is accepted, as protobuf does.
        let withExtras = try AesGcmKey(serialized: [0x08, 0x00, 0x10, 0x05] + [0x1a, 32] + Array(repeating: 1, count: 32))
        #expect(withExtras.keyValue == Array(repeating: 1, count: 32))
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 0)) { try AesGcmKey(serialized: []) }
        #expect(throws: KindredCryptoError.malformed(format: "AesGcmKey", reason: "key_value has the wrong wire type")) {
            try AesGcmKey(serialized: [0x18, 0x01])
        }
    }
}
