import Testing
@testable import KindredCrypto

/// Live interop with Python Tink, both directions, for AEAD keysets and ECIES hybrid encryption.
@Suite(.enabled(if: PythonTink.shouldRun, "python3 with the tink module not found (set CI=true to make this a failure)"))
struct TinkInteropTests {
    private let plaintext = Array("Kindred ↔ Tink".utf8)
    private let ad = Array("associated".utf8)

    @Test func swiftAEADKeysetsAndCiphertextsReadByPython() throws {
        var keyset = Keyset.generateAES256GCM()
        let first = try TinkAEAD(keyset: keyset).encrypt(plaintext, associatedData: ad)
        keyset.addAES256GCMKey(outputPrefixType: .raw, makePrimary: true)
        let second = try TinkAEAD(keyset: keyset).encrypt(plaintext, associatedData: ad)
        let kat = try Keyset.aes256GCM(key: Array(0...31), keyID: 0x0102_0304)
        let katCiphertext = try TinkAEAD(keyset: kat).encrypt(Array("hello".utf8), associatedData: Array("ad".utf8), iv: Array(0...11))
        let serialized = Hex.encode(keyset.serialized())
        let results = try PythonTink.run([
            ["op": "aead-decrypt", "keyset": serialized, "ciphertext": Hex.encode(first), "ad": Hex.encode(ad)],
            ["op": "aead-decrypt", "keyset": serialized, "ciphertext": Hex.encode(second), "ad": Hex.encode(ad)],
            ["op": "aead-decrypt", "keyset": Hex.encode(kat.serialized()), "ciphertext": Hex.encode(katCiphertext), "ad": Hex.encode(Array("ad".utf8))],
            ["op": "keyset-rewrite", "keyset": serialized],
            ["op": "aead-encrypt", "keyset": serialized, "plaintext": Hex.encode(plaintext), "ad": Hex.encode(ad)],
            ["op": "aead-decrypt", "keyset": serialized, "ciphertext": Hex.encode(first), "ad": "00"],
        ])
        #expect(results[0]["plaintext"] == Hex.encode(plaintext))
        #expect(results[1]["plaintext"] == Hex.encode(plaintext))
        #expect(results[2]["plaintext"] == Hex.encode(Array("hello".utf8)))
        #expect(results[3]["keyset"] == serialized)
        let fromPython = try Hex.decode(try #require(results[4]["ciphertext"]))
        #expect(try TinkAEAD(keyset: keyset).decrypt(fromPython, associatedData: ad) == plaintext)
        #expect(results[5]["error"] != nil, "Python must refuse the wrong associated data")
    }

    @Test func pythonAEADKeysetsAndCiphertextsReadBySwift() throws {
        let generated = try PythonTink.runAll([["op": "aead-generate", "plaintext": Hex.encode(plaintext), "ad": Hex.encode(ad)]])[0]
        let serialized = try Hex.decode(try #require(generated["keyset"]))
        let keyset = try Keyset(serialized: serialized)
        #expect(keyset.serialized() == serialized)
        #expect(keyset.keys.map(\.outputPrefixType) == [.tink, .raw])
        #expect(keyset.primaryKeyID == keyset.keys[1].keyID)
        let aead = try TinkAEAD(keyset: keyset)
        for name in ["ciphertext_tink", "ciphertext_raw"] {
            let ciphertext = try Hex.decode(try #require(generated[name]))
            #expect(try aead.decrypt(ciphertext, associatedData: ad) == plaintext, "\(name)")
        }
        let fromSwift = try aead.encrypt(plaintext, associatedData: ad)
        let back = try PythonTink.runAll([["op": "aead-decrypt", "keyset": Hex.encode(serialized), "ciphertext": Hex.encode(fromSwift), "ad": Hex.encode(ad)]])
        #expect(back[0]["plaintext"] == Hex.encode(plaintext))
    }

    @Test func swiftPrivateKeysetPythonEncrypts() throws {
        for type in [Keyset.OutputPrefixType.tink, .raw] {
            let privateKeyset = Keyset.generateECIESP256(outputPrefixType: type)
            let serialized = Hex.encode(privateKeyset.serialized())
            let swiftPublic = try privateKeyset.publicKeyset()
            let fromSwift = try TinkHybridEncrypt(publicKeyset: swiftPublic).encrypt(plaintext, contextInfo: ad)
            let results = try PythonTink.run([
                ["op": "hybrid-public", "private_keyset": serialized],
                ["op": "keyset-rewrite", "keyset": serialized],
                ["op": "hybrid-encrypt", "public_keyset": Hex.encode(swiftPublic.serialized()), "plaintext": Hex.encode(plaintext), "context": Hex.encode(ad)],
                ["op": "hybrid-decrypt", "private_keyset": serialized, "ciphertext": Hex.encode(fromSwift), "context": Hex.encode(ad)],
                ["op": "hybrid-decrypt", "private_keyset": serialized, "ciphertext": Hex.encode(fromSwift), "context": "ff"],
            ])
            #expect(results[1]["keyset"] == serialized)
            #expect(results[3]["plaintext"] == Hex.encode(plaintext))
            #expect(results[4]["error"] != nil, "Python must refuse the wrong context info")
            // Python derived the public keyset from Swift's private keyset (32-byte coordinates).
            let pythonPublic = try Keyset(serialized: try Hex.decode(try #require(results[0]["public_keyset"])))
            #expect(try pythonPublic.keys.map { try EciesAeadHkdfPublicKey(serialized: $0.keyData.value[...]).serialized() }
                == swiftPublic.keys.map(\.keyData.value))
            #expect(pythonPublic.keys.map(\.keyID) == swiftPublic.keys.map(\.keyID))
            let pythonCiphertext = try Hex.decode(try #require(results[2]["ciphertext"]))
            let decrypter = try TinkHybridDecrypt(privateKeyset: privateKeyset)
            #expect(try decrypter.decrypt(pythonCiphertext, contextInfo: ad) == plaintext)
            let viaPythonPublic = try PythonTink.runAll([["op": "hybrid-encrypt", "public_keyset": try #require(results[0]["public_keyset"]),
                                                           "plaintext": Hex.encode(plaintext), "context": ""]])
            #expect(try decrypter.decrypt(try Hex.decode(try #require(viaPythonPublic[0]["ciphertext"])), contextInfo: []) == plaintext)
        }
    }

    @Test func pythonPrivateKeysetSwiftEncrypts() throws {
        let generated = try PythonTink.runAll([["op": "hybrid-generate"]])[0]
        let privateHex = try #require(generated["private_keyset"])
        let privateKeyset = try Keyset(serialized: try Hex.decode(privateHex))
        #expect(privateKeyset.serialized() == (try Hex.decode(privateHex)))
        let publicKeyset = try privateKeyset.publicKeyset()
        let fromSwift = try TinkHybridEncrypt(publicKeyset: publicKeyset).encrypt(plaintext, contextInfo: ad)
        let results = try PythonTink.runAll([
            ["op": "hybrid-decrypt", "private_keyset": privateHex, "ciphertext": Hex.encode(fromSwift), "context": Hex.encode(ad)],
            ["op": "hybrid-encrypt", "public_keyset": Hex.encode(publicKeyset.serialized()), "plaintext": Hex.encode(plaintext), "context": Hex.encode(ad)],
        ])
        #expect(results[0]["plaintext"] == Hex.encode(plaintext))
        let fromPython = try Hex.decode(try #require(results[1]["ciphertext"]))
        #expect(try TinkHybridDecrypt(privateKeyset: privateKeyset).decrypt(fromPython, contextInfo: ad) == plaintext)
    }

    @Test func templateAndKnownAnswersAgreeWithPython() throws {
        let vectors = try TinkHybridVectors.load()
        let c = vectors.cases[0]
        let results = try PythonTink.runAll([
            ["op": "hybrid-template"],
            ["op": "hybrid-decrypt", "private_keyset": c.privateKeyset, "ciphertext": c.ciphertext, "context": c.contextInfo],
        ])
        var keyFormat = ProtobufWriter()
        keyFormat.message(1, EciesAeadHkdfParams.p256HkdfSha256Aes128Gcm.serialized())
        #expect(results[0]["value"] == Hex.encode(keyFormat.bytes))
        #expect(results[0]["type_url"] == EciesAeadHkdfPrivateKey.typeURL)
        #expect(results[0]["output_prefix_type"] == "1")
        #expect(results[1]["plaintext"] == c.plaintext)
    }
}
