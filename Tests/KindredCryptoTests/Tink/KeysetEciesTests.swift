import Testing
@testable import KindredCrypto

@Suite struct KeysetEciesTests {
    private static let fieldPrime = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
    private static let groupOrder = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"

    /// Reads the fields of one protobuf message as (field, bytes) pairs (length-delimited only).
    private func fields(_ bytes: [UInt8]) throws -> [(Int, [UInt8])] {
        var reader = ProtobufReader(bytes, format: "test")
        var out: [(Int, [UInt8])] = []
        while let (field, value) = try reader.next() {
            if case .bytes(let b) = value { out.append((field, Array(b))) }
        }
        return out
    }

    private func publicKeyProto(params: [UInt8], x: [UInt8], y: [UInt8]) -> [UInt8] {
        var w = ProtobufWriter()
        w.message(2, params)
        w.bytes(3, x)
        w.bytes(4, y)
        return w.bytes
    }

    @Test func importedKeysetsMatchJavaBytes() throws {
        for c in try TinkHybridVectors.load().cases {
            let params = EciesAeadHkdfParams(hkdfSalt: try Hex.decode(c.hkdfSalt), demKeySize: c.demKeySize)
            let keyset = try Keyset.eciesP256(privateScalar: try Hex.decode(c.recipientScalar), params: params, keyID: c.keyID,
                                              outputPrefixType: Keyset.OutputPrefixType(vectorName: c.outputPrefixType))
            #expect(Hex.encode(keyset.serialized()) == c.privateKeyset, "\(c.name)")
            #expect(Hex.encode(try keyset.publicKeyset().serialized()) == c.publicKeyset, "\(c.name)")
            // A Python/C++-style keyset (32-byte values) reads to the same key and re-encodes Java-style.
            let python = try Keyset(serialized: try Hex.decode(c.privateKeyset32))
            #expect(Hex.encode(try python.publicKeyset().serialized()) == c.publicKeyset, "\(c.name)")
            let key = try EciesAeadHkdfPrivateKey(serialized: python.keys[0].keyData.value)
            #expect(Hex.encode(key.serialized()) == Hex.encode(keyset.keys[0].keyData.value), "\(c.name)")
        }
    }

    @Test func writtenValuesAre33BytesWithLeadingZero() throws {
        let keyset = Keyset.generateECIESP256()
        let key = keyset.keys[0]
        #expect(key.keyData.typeURL == "type.googleapis.com/google.crypto.tink.EciesAeadHkdfPrivateKey")
        #expect(key.keyData.keyMaterialType == .asymmetricPrivate)
        #expect(key.outputPrefixType == .tink && key.status == .enabled && key.keyID == keyset.primaryKeyID)
        let privateFields = try fields(key.keyData.value)
        #expect(privateFields.map(\.0) == [2, 3])
        #expect(privateFields[1].1.count == 33 && privateFields[1].1[0] == 0)
        let publicFields = try fields(privateFields[0].1)
        #expect(publicFields.map(\.0) == [2, 3, 4])
        #expect(publicFields[0].1 == EciesAeadHkdfParams.p256HkdfSha256Aes128Gcm.serialized())
        for coordinate in publicFields[1...] {
            #expect(coordinate.1.count == 33 && coordinate.1[0] == 0)
        }
        let publicKeyset = try keyset.publicKeyset()
        #expect(publicKeyset.primaryKeyID == keyset.primaryKeyID)
        let publicKey = publicKeyset.keys[0]
        #expect(publicKey.keyData.typeURL == "type.googleapis.com/google.crypto.tink.EciesAeadHkdfPublicKey")
        #expect(publicKey.keyData.keyMaterialType == .asymmetricPublic)
        #expect(publicKey.keyData.value == privateFields[0].1)
        #expect(try Keyset(serialized: keyset.serialized()) == keyset)
    }

    @Test func coordinatesReadAtAnyLengthWithLeadingZeros() throws {
        let c = try TinkHybridVectors.load().cases[0]
        let params = EciesAeadHkdfParams.p256HkdfSha256Aes128Gcm.serialized()
        let x = try Hex.decode(c.recipientX), y = try Hex.decode(c.recipientY)
        let expected = try EciesAeadHkdfPublicKey(serialized: publicKeyProto(params: params, x: x, y: y)[...]).serialized()
        for padding in [0, 1, 2, 9] {
            let zeros = [UInt8](repeating: 0, count: padding)
            let key = try EciesAeadHkdfPublicKey(serialized: publicKeyProto(params: params, x: zeros + x, y: zeros + y)[...])
            #expect(key.serialized() == expected)
        }
        #expect(Array(Array(expected.suffix(35 + 35))[0..<3]) == [0x1a, 33, 0])
    }

    @Test func shortCoordinatesAreLeftPadded() {
        #expect(P256Coordinate.decode([1, 2]) == [UInt8](repeating: 0, count: 30) + [1, 2])
        #expect(P256Coordinate.decode([UInt8]()) == [UInt8](repeating: 0, count: 32))
        #expect(P256Coordinate.decode([1] + [UInt8](repeating: 0, count: 32)) == nil)
        #expect(P256Coordinate.encode([UInt8](repeating: 0xff, count: 32)) == [0] + [UInt8](repeating: 0xff, count: 32))
    }

    @Test func invalidPointsAreRefused() throws {
        let c = try TinkHybridVectors.load().cases[0]
        let params = EciesAeadHkdfParams.p256HkdfSha256Aes128Gcm.serialized()
        let x = try Hex.decode(c.recipientX), y = try Hex.decode(c.recipientY)
        var yPlusOne = y
        yPlusOne[31] &+= 1
        let prime = try Hex.decode(Self.fieldPrime)
        for (badX, badY) in [(x, yPlusOne), (prime, y), ([1] + x, y), ([], []), (x, [])] {
            #expect(throws: KindredCryptoError.invalidPublicKey) {
                try EciesAeadHkdfPublicKey(serialized: publicKeyProto(params: params, x: badX, y: badY)[...])
            }
        }
        var versioned = ProtobufWriter()
        versioned.uint(1, 1)
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "EciesAeadHkdfPublicKey version 1 is not supported")) {
            try EciesAeadHkdfPublicKey(serialized: (versioned.bytes + publicKeyProto(params: params, x: x, y: y))[...])
        }
    }

    @Test func invalidPrivateKeysAreRefused() throws {
        let c = try TinkHybridVectors.load().cases[0]
        let good = try Keyset(serialized: try Hex.decode(c.privateKeyset)).keys[0].keyData.value
        let publicKey = try fields(good)[0].1
        func privateKey(_ scalar: [UInt8], publicKey: [UInt8]) -> [UInt8] {
            var w = ProtobufWriter()
            w.message(2, publicKey)
            w.bytes(3, scalar)
            return w.bytes
        }
        let scalar = try Hex.decode(c.recipientScalar)
        #expect(try EciesAeadHkdfPrivateKey(serialized: privateKey([0, 0, 0] + scalar, publicKey: publicKey)).serialized() == good)
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 33)) {
            try EciesAeadHkdfPrivateKey(serialized: privateKey([1] + scalar, publicKey: publicKey))
        }
        for bad in [[UInt8](), try Hex.decode(Self.groupOrder), [UInt8](repeating: 0xff, count: 32)] {
            #expect(throws: KindredCryptoError.invalidKeyset(reason: "the ECIES private key is not a valid P-256 scalar")) {
                try EciesAeadHkdfPrivateKey(serialized: privateKey(bad, publicKey: publicKey))
            }
        }
        var otherScalar = scalar
        otherScalar[31] ^= 1
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "the ECIES public key does not match the private key")) {
            try EciesAeadHkdfPrivateKey(serialized: privateKey(otherScalar, publicKey: publicKey))
        }
        #expect(throws: KindredCryptoError.invalidParameters("ECIES curve 0 is not supported (only NIST_P256 = 2)")) {
            try EciesAeadHkdfPrivateKey(serialized: privateKey(scalar, publicKey: []))
        }
    }
}
