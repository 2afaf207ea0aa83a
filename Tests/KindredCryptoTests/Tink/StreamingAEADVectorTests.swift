import Crypto
import Foundation
import Testing
@testable import KindredCrypto

/// Known-answer vectors (Vectors/tink-streaming.json): ciphertexts made with a fixed salt and
/// nonce prefix by an independent Python implementation and checked by decrypting with Python tink
/// (Interop/make_streaming_vectors.py).
@Suite struct StreamingAEADVectorTests {
    struct File: Decodable {
        let vectors: [Vector]
    }

    struct Vector: Decodable {
        let name: String
        let keyset_hex: String
        let key_value_hex: String
        let ciphertext_segment_size: Int
        let derived_key_size: Int
        let hkdf_hash: String
        let salt_hex: String
        let nonce_prefix_hex: String
        let aad_hex: String
        let plaintext_length: Int
        let plaintext_hex: String?
        let ciphertext_length: Int
        let ciphertext_hex: String?
        let ciphertext_sha256_hex: String
    }

    static let vectors: [Vector] = (try? Vectors.load("tink-streaming", as: File.self).vectors) ?? []

    @Test func vectorFileIsPresent() {
        #expect(Self.vectors.count == 8)
    }

    @Test(arguments: vectors.map(\.name))
    func encryptsAndDecryptsTheVector(name: String) throws {
        let v = try #require(Self.vectors.first { $0.name == name })
        let keyset = try Keyset(serialized: Hex.decode(v.keyset_hex))
        let aead = try TinkStreamingAEAD(keyset: keyset)
        let key = try #require(aead.decryptionKeys.first)
        #expect(key.keyValue == (try Hex.decode(v.key_value_hex)))
        #expect(key.parameters.ciphertextSegmentSize == v.ciphertext_segment_size)
        #expect(key.parameters.derivedKeySize == v.derived_key_size)
        #expect("\(key.parameters.hkdfHashType)".uppercased() == v.hkdf_hash)

        let plaintext = try v.plaintext_hex.map(Hex.decode) ?? StreamingFixtures.pattern(v.plaintext_length)
        #expect(plaintext.count == v.plaintext_length)
        let aad = try Hex.decode(v.aad_hex)
        let encrypter = StreamingEncrypter(key: key, salt: try Hex.decode(v.salt_hex),
                                           noncePrefix: try Hex.decode(v.nonce_prefix_hex), associatedData: aad)
        let ciphertext = try StreamingFixtures.encrypt(encrypter, plaintext, sizes: [65536])
        #expect(ciphertext.count == v.ciphertext_length)
        #expect(Hex.encode(Array(SHA256.hash(data: ciphertext))) == v.ciphertext_sha256_hex)
        if let hex = v.ciphertext_hex { #expect(Hex.encode(ciphertext) == hex) }
        #expect(try aead.decrypt(ciphertext, associatedData: aad) == plaintext)
    }
}
