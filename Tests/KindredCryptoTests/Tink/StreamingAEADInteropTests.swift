import Foundation
import KindredTestSupport
import Testing
@testable import KindredCrypto

/// The Python tink peer `Interop/streaming_aead_interop.py`.
enum StreamingPythonPeer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/streaming_aead_interop.py").path

    /// Whether `python3` with the `tink` module answers.
    static let available: Bool = (try? run(["check"]))?.status == 0

    /// Runs the peer with `arguments`.
    static func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run("/usr/bin/env", ["python3", script] + arguments)
    }

    /// Runs the peer and requires success.
    static func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ChildProcess.Result {
        let result = try run(arguments)
        try #require(result.status == 0, "python peer \(arguments.first ?? ""): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }
}

/// Live interop with Python tink in both directions. Skipped (with a message) when python3 or
/// tink is missing, except in CI (`CI=true`), where that is a failure.
@Suite(.enabled(if: StreamingPythonPeer.available || ChildProcess.isCI, "python3 with the tink module is not installed"))
struct StreamingAEADInteropTests {
    typealias F = StreamingFixtures
    static let aad = Array("vault:video:7".utf8)
    static let sizes = [0, 1, F.firstPlaintext1MB, F.firstPlaintext1MB + 1, 5 * (1 << 19)]  // … 2.5 MiB

    init() throws {
        try #require(StreamingPythonPeer.available, "CI=true requires python3 with the tink module")
    }

    @Test func pythonEncryptedStreamsDecryptInSwift() throws {
        let directory = try TemporaryDirectory()
        let keysetFile = directory.url.appendingPathComponent("python.keyset").path
        _ = try StreamingPythonPeer.succeed(["new-keyset", keysetFile])
        let aead = try TinkStreamingAEAD(keyset: Keyset(serialized: directory.read("python.keyset")))
        for size in Self.sizes {
            let plaintext = F.pattern(size, offset: 11)
            let input = try directory.write("plain-\(size)", plaintext)
            let output = directory.url.appendingPathComponent("cipher-\(size)").path
            _ = try StreamingPythonPeer.succeed(["encrypt", keysetFile, Hex.encode(Self.aad), input.path, output])
            let ciphertext = try directory.read("cipher-\(size)")
            #expect(ciphertext.count == StreamingAEADTests.expectedCiphertextSize(size, segment: 1 << 20))
            #expect(try F.decrypt(aead.makeDecrypter(associatedData: Self.aad), ciphertext, sizes: [65536]) == plaintext, "size \(size)")
            #expect(throws: KindredCryptoError.authenticationFailed) { try aead.decrypt(ciphertext, associatedData: []) }
        }
    }

    @Test func swiftEncryptedStreamsDecryptInPython() throws {
        let directory = try TemporaryDirectory()
        let keyset = Keyset.generateAES256GCMHKDF1MB()
        let keysetFile = try directory.write("swift.keyset", keyset.serialized()).path
        let aead = try TinkStreamingAEAD(keyset: keyset)
        for size in Self.sizes {
            let plaintext = F.pattern(size, offset: 5)
            let ciphertext = try F.encrypt(aead.makeEncrypter(associatedData: Self.aad), plaintext, sizes: [65536])
            let input = try directory.write("cipher-\(size)", ciphertext)
            let output = directory.url.appendingPathComponent("plain-\(size)").path
            _ = try StreamingPythonPeer.succeed(["decrypt", keysetFile, Hex.encode(Self.aad), input.path, output])
            #expect(try directory.read("plain-\(size)") == plaintext, "size \(size)")
        }
    }

    @Test func pythonReadsTheSwiftWrittenKeyset() throws {
        let directory = try TemporaryDirectory()
        let keyset = Keyset.generateAES256GCMHKDF1MB()
        let file = try directory.write("swift.keyset", keyset.serialized()).path
        let described = try StreamingPythonPeer.succeed(["describe", file]).stdout
        struct Description: Decodable, Equatable {
            struct Key: Decodable, Equatable {
                let key_id: UInt32, type_url: String, output_prefix_type: String, status: String
                let ciphertext_segment_size: Int, derived_key_size: Int, hkdf_hash_type: Int, key_value_size: Int
            }
            let primary_key_id: UInt32
            let keys: [Key]
        }
        let id = keyset.primaryKeyID
        #expect(try JSONDecoder().decode(Description.self, from: Data(described)) == Description(primary_key_id: id, keys: [
            .init(key_id: id, type_url: "type.googleapis.com/google.crypto.tink.AesGcmHkdfStreamingKey", output_prefix_type: "RAW",
                  status: "ENABLED", ciphertext_segment_size: 1 << 20, derived_key_size: 32, hkdf_hash_type: 3, key_value_size: 32),
        ]))
    }

    @Test func pythonDecryptsOtherSegmentSizesAndMultiKeyKeysets() throws {
        let directory = try TemporaryDirectory()
        let small = F.smallKeyset()
        let big = Keyset.generateAES256GCMHKDF1MB()
        let combined = Keyset(primaryKeyID: small.primaryKeyID, keys: small.keys + big.keys)
        let keysetFile = try directory.write("combined.keyset", combined.serialized()).path
        for (name, keyset) in [("small", small), ("big", big), ("combined", combined)] {
            let plaintext = F.pattern(3000)
            let ciphertext = try TinkStreamingAEAD(keyset: keyset).encrypt(plaintext, associatedData: Self.aad)
            let input = try directory.write("cipher-\(name)", ciphertext)
            let output = directory.url.appendingPathComponent("plain-\(name)").path
            _ = try StreamingPythonPeer.succeed(["decrypt", keysetFile, Hex.encode(Self.aad), input.path, output])
            #expect(try directory.read("plain-\(name)") == plaintext, "\(name)")
        }
    }

    @Test func pythonRejectsWhatSwiftRejects() throws {
        let directory = try TemporaryDirectory()
        let keyset = F.smallKeyset()
        let keysetFile = try directory.write("small.keyset", keyset.serialized()).path
        let aead = try TinkStreamingAEAD(keyset: keyset)
        let ciphertext = try aead.encrypt(F.pattern(1000), associatedData: Self.aad)
        var badHeader = ciphertext
        badHeader[0] = 41
        var swapped = ciphertext
        swapped.replaceSubrange(256..<768, with: ciphertext[512..<768] + ciphertext[256..<512])
        for (name, bytes) in [("truncated", Array(ciphertext[..<1024])), ("appended", ciphertext + [0]),
                              ("header", badHeader), ("swapped", swapped)] {
            #expect(throws: KindredCryptoError.self) { try aead.decrypt(bytes, associatedData: Self.aad) }
            let input = try directory.write(name, bytes)
            let result = try StreamingPythonPeer.run(["decrypt", keysetFile, Hex.encode(Self.aad), input.path,
                                                      directory.url.appendingPathComponent("out").path])
            #expect(result.status == 1 && result.stderr.hasPrefix("tink error"), "\(name): \(result.status) \(result.stderr)")
        }
    }
}
