import Testing
@testable import KindredCrypto

/// Which keysets and `AesGcmHkdfStreamingKey`s `TinkStreamingAEAD` accepts, and the typed errors for the rest.
@Suite struct StreamingAEADKeysetTests {
    static let typeURL = "type.googleapis.com/google.crypto.tink.AesGcmHkdfStreamingKey"

    /// A one-key keyset around raw key-proto bytes.
    static func keyset(_ value: [UInt8], typeURL: String = typeURL, prefix: Keyset.OutputPrefixType = .raw) -> Keyset {
        Keyset(primaryKeyID: 7, keys: [.init(keyData: .init(typeURL: typeURL, value: value, keyMaterialType: .symmetric),
                                             keyID: 7, outputPrefixType: prefix)])
    }

    /// Serializes a key proto field by field (so that invalid values can be written).
    static func keyProto(version: UInt64 = 0, segment: UInt64 = 1 << 20, derived: UInt64 = 32, hash: UInt64 = 3, keyValue: [UInt8] = .init(repeating: 1, count: 32)) -> [UInt8] {
        var params = ProtobufWriter()
        params.uint(1, segment)
        params.uint(2, derived)
        params.uint(3, hash)
        var key = ProtobufWriter()
        key.uint(1, version)
        key.message(2, params.bytes, always: true)
        key.bytes(3, keyValue)
        return key.bytes
    }

    @Test func parsesTinksKeyProto() throws {
        let key = try AesGcmHkdfStreamingKey(serialized: Self.keyProto(hash: 4, keyValue: .init(repeating: 2, count: 48)))
        #expect(key.parameters == .init(ciphertextSegmentSize: 1 << 20, derivedKeySize: 32, hkdfHashType: .sha512))
        #expect(key.keyValue == .init(repeating: 2, count: 48))
        #expect(key.serialized() == Self.keyProto(hash: 4, keyValue: .init(repeating: 2, count: 48)))
    }

    @Test func rejectsInvalidKeysWithTypedErrors() {
        let cases: [([UInt8], KindredCryptoError)] = [
            (Self.keyProto(version: 1), .invalidKeyset(reason: "AesGcmHkdfStreamingKey version 1 is not supported")),
            (Self.keyProto(derived: 24), .invalidParameters("derived key size must be 16 or 32, not 24")),
            (Self.keyProto(keyValue: .init(repeating: 1, count: 16)), .invalidKeySize(expected: 32, actual: 16)),
            (Self.keyProto(derived: 16, keyValue: .init(repeating: 1, count: 15)), .invalidKeySize(expected: 16, actual: 15)),
            (Self.keyProto(segment: 56), .invalidParameters("ciphertext segment size must be at least 57, not 56")),
            (Self.keyProto(segment: 0), .invalidParameters("ciphertext segment size must be at least 57, not 0")),
            (Self.keyProto(segment: 32 << 20), .parametersOutOfBounds("ciphertext segment size 33554432 exceeds Kindred's limit of 16777216")),
            (Self.keyProto(hash: 2), .invalidParameters("HKDF hash type 2 is not SHA1, SHA256 or SHA512")),
            (Self.keyProto(hash: 0), .invalidParameters("HKDF hash type 0 is not SHA1, SHA256 or SHA512")),
            ([0x12, 0x05, 0x08], .truncated(format: "AesGcmHkdfStreamingKey")),
            (Self.keyProto(segment: 1 << 40), .malformed(format: "AesGcmHkdfStreamingParams", reason: "ciphertext_segment_size exceeds 32 bits")),
        ]
        for (bytes, error) in cases {
            #expect(throws: error) { try TinkStreamingAEAD(keyset: Self.keyset(bytes)) }
        }
        #expect(throws: KindredCryptoError.invalidParameters("HKDF hash type 0 is not SHA1, SHA256 or SHA512")) {
            try TinkStreamingAEAD(keyset: Self.keyset([]))
        }
    }

    @Test func acceptsTheSmallestSegmentTinkAccepts() throws {
        let aead = try TinkStreamingAEAD(keyset: Self.keyset(Self.keyProto(segment: 57)))
        let plaintext = StreamingFixtures.pattern(100)
        #expect(try aead.decrypt(aead.encrypt(plaintext, associatedData: []), associatedData: []) == plaintext)
    }

    @Test func rejectsKeysetsTinkRejects() {
        let valid = Self.keyProto()
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "streaming AEAD keys must have output prefix RAW (key 7)")) {
            try TinkStreamingAEAD(keyset: Self.keyset(valid, prefix: .tink))
        }
        #expect(throws: KindredCryptoError.unsupportedKeyType(typeURL: "type.googleapis.com/google.crypto.tink.AesGcmKey")) {
            try TinkStreamingAEAD(keyset: Self.keyset(valid, typeURL: "type.googleapis.com/google.crypto.tink.AesGcmKey"))
        }
        var disabledPrimary = Self.keyset(valid)
        disabledPrimary.keys[0].status = .disabled
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "the primary key is not enabled")) {
            try TinkStreamingAEAD(keyset: disabledPrimary)
        }
        #expect(throws: KindredCryptoError.invalidKeyset(reason: "no key has the primary key id")) {
            try TinkStreamingAEAD(keyset: Keyset(primaryKeyID: 1, keys: []))
        }
    }

    @Test func ignoresDisabledKeysOfOtherTypes() throws {
        var keyset = Self.keyset(Self.keyProto())
        keyset.keys.append(.init(keyData: .init(typeURL: "type.googleapis.com/google.crypto.tink.AesGcmKey", value: [1], keyMaterialType: .symmetric),
                                 status: .destroyed, keyID: 8, outputPrefixType: .tink))
        let aead = try TinkStreamingAEAD(keyset: keyset)
        #expect(aead.decryptionKeys.count == 1)
    }
}
