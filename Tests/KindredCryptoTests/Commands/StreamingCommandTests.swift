import Foundation
import KindredTestSupport
import Testing
@testable import KindredCrypto

/// `kindred crypto streaming encrypt|decrypt`, run as a process against keysets made by the library.
@Suite struct StreamingCommandTests {
    typealias F = StreamingFixtures

    /// The `kindred` executable built next to the test bundle.
    static let kindred = ChildProcess.kindredExecutable.path

    let directory: TemporaryDirectory
    let keyset = Keyset.generateAES256GCMHKDF1MB()
    let keysetFile: String

    init() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.kindred), "build the kindred executable first (swift build --build-tests)")
        directory = try TemporaryDirectory()
        keysetFile = try directory.write("vault.keyset", keyset.serialized()).path
    }

    func kindred(_ direction: String, _ input: URL, aad: String? = nil) throws -> ChildProcess.Result {
        try ChildProcess.run(Self.kindred, ["crypto", "streaming", direction, "--keyset", keysetFile] + (aad.map { ["--aad", $0] } ?? []),
                             stdin: input)
    }

    @Test func encryptsAndDecryptsStdinToStdout() throws {
        let aead = try TinkStreamingAEAD(keyset: keyset)
        for size in [0, 1, F.firstPlaintext1MB, 5 * (1 << 19)] {
            let plaintext = F.pattern(size, offset: 1)
            let encrypted = try kindred("encrypt", directory.write("plain", plaintext), aad: "clip 1")
            #expect(encrypted.status == 0, "\(encrypted.stderr)")
            #expect(encrypted.stdout.count == StreamingAEADTests.expectedCiphertextSize(size, segment: 1 << 20))
            #expect(try aead.decrypt(encrypted.stdout, associatedData: Array("clip 1".utf8)) == plaintext)

            let ciphertext = try aead.encrypt(plaintext, associatedData: [])
            let decrypted = try kindred("decrypt", directory.write("cipher", ciphertext))
            #expect(decrypted.status == 0, "\(decrypted.stderr)")
            #expect(decrypted.stdout == plaintext, "size \(size)")
        }
    }

    @Test func failsWithOneLineForBadStreams() throws {
        let aead = try TinkStreamingAEAD(keyset: keyset)
        let ciphertext = try aead.encrypt(F.pattern(F.firstPlaintext1MB + 10), associatedData: [])
        let cases: [([UInt8], String?, String)] = [
            (ciphertext, "other", "Error: decryption failed: wrong key, wrong associated data or modified ciphertext\n"),
            (Array(ciphertext[..<(1 << 20)]), nil,
             "Error: streaming ciphertext: truncated: the stream ends after segment 0, which is not the final segment\n"),
            (ciphertext + [0], nil,
             "Error: streaming ciphertext: segment 1 failed authentication (modified, reordered, removed or duplicated)\n"),
            (Array(ciphertext[..<20]), nil, "Error: streaming AEAD: input is truncated\n"),
        ]
        for (bytes, aad, message) in cases {
            let result = try kindred("decrypt", directory.write("bad", bytes), aad: aad)
            #expect(result.status != 0)
            #expect(result.stderr == message)
        }
        let missing = try ChildProcess.run(Self.kindred, ["crypto", "streaming", "encrypt", "--keyset", directory.url.path + "/none"],
                                           stdin: directory.write("x", [1]))
        #expect(missing.status != 0 && missing.stdout.isEmpty)
        #expect(missing.stderr == "Error: cannot read keyset file \(directory.url.path)/none\n")
        let notAKeyset = try ChildProcess.run(Self.kindred, ["crypto", "streaming", "decrypt", "--keyset", directory.write("junk", [0xff]).path],
                                              stdin: directory.write("y", [1]))
        #expect(notAKeyset.status != 0 && notAKeyset.stderr == "Error: keyset: input is truncated\n")
    }
}
