import Testing
@testable import KindredCrypto

@Suite struct EciesAeadHkdfParamsTests {
    @Test func templateBytesMatchTink() throws {
        let vectors = try TinkHybridVectors.load()
        let params = EciesAeadHkdfParams.p256HkdfSha256Aes128Gcm.serialized()
        #expect(Hex.encode(params) == vectors.paramsSerialized)
        // The template value is EciesAeadHkdfKeyFormat { params = 1 }, as Python Tink reports it.
        var keyFormat = ProtobufWriter()
        keyFormat.message(1, params)
        #expect(Hex.encode(keyFormat.bytes) == vectors.templateValue)
        #expect(vectors.templateTypeURL == EciesAeadHkdfPrivateKey.typeURL)
        #expect(try EciesAeadHkdfParams(serialized: params[...]) == .p256HkdfSha256Aes128Gcm)
    }

    @Test func saltAndAes256DemRoundTrip() throws {
        let params = EciesAeadHkdfParams(hkdfSalt: Array("salt".utf8), demKeySize: 32)
        #expect(try EciesAeadHkdfParams(serialized: params.serialized()[...]) == params)
    }

    @Test func demOutputPrefixTypeIsIgnoredOnRead() throws {
        // Java reads the DEM template as RAW whatever it says; only TINK is ever written.
        var bytes = EciesAeadHkdfParams.p256HkdfSha256Aes128Gcm.serialized()
        let tinkPrefixField: [UInt8] = [0x18, 0x01, 0x18, 0x01]
        #expect(Array(bytes.suffix(4)) == tinkPrefixField)
        bytes[bytes.count - 3] = 0x03
        #expect(try EciesAeadHkdfParams(serialized: bytes[...]) == .p256HkdfSha256Aes128Gcm)
    }

    @Test func unsupportedParametersAreRefused() throws {
        func params(curve: UInt64 = 2, hash: UInt64 = 3, point: UInt64 = 1, demURL: String = AesGcmKey.typeURL,
                    keySize: UInt64 = 16, version: UInt64 = 0) -> [UInt8] {
            var kem = ProtobufWriter(); kem.uint(1, curve); kem.uint(2, hash)
            var format = ProtobufWriter(); format.uint(2, keySize); format.uint(3, version)
            var template = ProtobufWriter(); template.bytes(1, Array(demURL.utf8)); template.bytes(2, format.bytes); template.uint(3, 1)
            var dem = ProtobufWriter(); dem.message(2, template.bytes)
            var w = ProtobufWriter(); w.message(1, kem.bytes); w.message(2, dem.bytes); w.uint(3, point)
            return w.bytes
        }
        #expect(try EciesAeadHkdfParams(serialized: params()[...]) == .p256HkdfSha256Aes128Gcm)
        #expect(throws: KindredCryptoError.invalidParameters("ECIES curve 3 is not supported (only NIST_P256 = 2)")) {
            try EciesAeadHkdfParams(serialized: params(curve: 3)[...])
        }
        #expect(throws: KindredCryptoError.invalidParameters("ECIES HKDF hash 4 is not supported (only SHA256 = 3)")) {
            try EciesAeadHkdfParams(serialized: params(hash: 4)[...])
        }
        #expect(throws: KindredCryptoError.invalidParameters("ECIES point format 2 is not supported (only UNCOMPRESSED = 1)")) {
            try EciesAeadHkdfParams(serialized: params(point: 2)[...])
        }
        let ctrHmac = "type.googleapis.com/google.crypto.tink.AesCtrHmacAeadKey"
        #expect(throws: KindredCryptoError.unsupportedKeyType(typeURL: ctrHmac)) { try EciesAeadHkdfParams(serialized: params(demURL: ctrHmac)[...]) }
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 16, actual: 24)) { try EciesAeadHkdfParams(serialized: params(keySize: 24)[...]) }
        #expect(throws: KindredCryptoError.invalidParameters("AesGcmKeyFormat version 1 is not supported")) {
            try EciesAeadHkdfParams(serialized: params(version: 1)[...])
        }
        #expect(throws: KindredCryptoError.invalidParameters("ECIES curve 0 is not supported (only NIST_P256 = 2)")) {
            try EciesAeadHkdfParams(serialized: [])
        }
    }
}
