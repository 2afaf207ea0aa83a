import Testing
@testable import KindredCrypto

/// Every way of damaging a stream gets its own typed error.
@Suite struct StreamingAEADTamperingTests {
    typealias F = StreamingFixtures
    static let keyset = F.smallKeyset()
    static let aad = Array("vault:clip".utf8)
    static let plaintext = F.pattern(1000)

    /// header 0..<40, segment 0 40..<256, segments 1–3 at 256·i, final segment 1024..<1120.
    let ciphertext: [UInt8]
    let aead: TinkStreamingAEAD

    init() throws {
        aead = try TinkStreamingAEAD(keyset: Self.keyset)
        ciphertext = try aead.encrypt(Self.plaintext, associatedData: Self.aad)
    }

    func segment(_ i: Int) -> [UInt8] { i == 0 ? Array(ciphertext[40..<256]) : Array(ciphertext[256 * i..<min(256 * (i + 1), 1120)]) }

    static func failed(_ n: Int) -> KindredCryptoError {
        .streamCorrupted("segment \(n) failed authentication (modified, reordered, removed or duplicated)")
    }

    static func truncated(after n: Int) -> KindredCryptoError {
        .streamCorrupted("truncated: the stream ends after segment \(n), which is not the final segment")
    }

    func expect(_ bytes: [UInt8], _ error: KindredCryptoError, aead: TinkStreamingAEAD? = nil, aad: [UInt8] = aad,
                sourceLocation: SourceLocation = #_sourceLocation) {
        let aead = aead ?? self.aead
        for sizes in [[0], [1], [100, 7]] {
            #expect(throws: error, "chunks \(sizes)", sourceLocation: sourceLocation) {
                try F.decrypt(aead.makeDecrypter(associatedData: aad), bytes, sizes: sizes)
            }
        }
    }

    @Test func layoutIsAsDocumented() throws {
        #expect(ciphertext.count == 1120)
        #expect(try F.decrypt(aead.makeDecrypter(associatedData: Self.aad), ciphertext, sizes: [1]) == Self.plaintext)
    }

    @Test func wrongKeyOrAssociatedData() throws {
        expect(ciphertext, .authenticationFailed, aead: try TinkStreamingAEAD(keyset: F.smallKeyset()))
        expect(ciphertext, .authenticationFailed, aad: [])
        expect(ciphertext, .authenticationFailed, aad: Self.aad + [0])
    }

    @Test func modifiedHeaderOrSegments() {
        for (index, error) in [(1, KindredCryptoError.authenticationFailed), (33, .authenticationFailed), (39, .authenticationFailed),
                               (40, .authenticationFailed), (255, .authenticationFailed), (256, Self.failed(1)),
                               (800, Self.failed(3)), (1119, Self.failed(4))] {
            var bytes = ciphertext
            bytes[index] ^= 0x01
            expect(bytes, error)
        }
    }

    @Test func badHeaderLengthByte() {
        for value: UInt8 in [0, 24, 39, 41, 0xff] {
            var bytes = ciphertext
            bytes[0] = value
            expect(bytes, .malformed(format: "streaming AEAD", reason: "header length byte \(value) is not 40"))
        }
    }

    @Test func truncatedStreams() {
        for length in [0, 1, 39, 40, 41, 55] {
            expect(Array(ciphertext[..<length]), .truncated(format: "streaming AEAD"))
        }
        expect(Array(ciphertext[..<56]), .authenticationFailed)
        expect(Array(ciphertext[..<255]), .authenticationFailed)
        // Missing final segment: the stream stops on a segment boundary.
        expect(Array(ciphertext[..<256]), Self.truncated(after: 0))
        expect(Array(ciphertext[..<512]), Self.truncated(after: 1))
        expect(Array(ciphertext[..<1024]), Self.truncated(after: 3))
        // Stopping inside a segment.
        expect(Array(ciphertext[..<600]), Self.failed(2))
        expect(Array(ciphertext[..<1119]), Self.failed(4))
        expect(Array(ciphertext[..<1025]), Self.failed(4))
    }

    @Test func reorderedRemovedOrDuplicatedSegments() {
        let header = Array(ciphertext[..<40])
        expect(header + segment(0) + segment(2) + segment(1) + segment(3) + segment(4), Self.failed(1))
        expect(header + segment(0) + segment(1) + segment(3) + segment(4), Self.failed(2))
        expect(header + segment(0) + segment(1) + segment(1) + segment(2) + segment(3) + segment(4), Self.failed(2))
        expect(header + segment(0) + segment(1) + segment(2) + segment(3), Self.truncated(after: 3))
        expect(header + segment(0) + segment(1) + segment(2) + segment(3) + segment(3) + segment(4), Self.failed(4))
        // A segment from another stream of the same key (different salt, so a different stream key).
        let other = (try? aead.encrypt(Self.plaintext, associatedData: Self.aad)) ?? []
        expect(header + segment(0) + Array(other[256..<512]) + Array(ciphertext[512...]), Self.failed(1))
    }

    @Test func appendedBytes() throws {
        expect(ciphertext + [0], Self.failed(4))
        expect(ciphertext + ciphertext, Self.failed(4))
        // After a full final segment, the appended bytes are recognised as such.
        let exact = try aead.encrypt(F.pattern(200 + 240), associatedData: Self.aad)
        #expect(exact.count == 512)
        expect(exact + [0], .streamCorrupted("data follows the final segment 1"))
        expect(exact + exact, .streamCorrupted("data follows the final segment 1"))
        let single = try aead.encrypt(F.pattern(200), associatedData: Self.aad)
        expect(single + [1, 2, 3], .streamCorrupted("data follows the final segment 0"))
    }

    @Test func errorsAreFinal() throws {
        var decrypter = try aead.makeDecrypter(associatedData: [])
        #expect(throws: KindredCryptoError.authenticationFailed) { try decrypter.update(ciphertext) }
        #expect(throws: KindredCryptoError.authenticationFailed) { try decrypter.update([]) }
        #expect(throws: KindredCryptoError.authenticationFailed) { try decrypter.finish() }
    }

    @Test func oneMebibyteFormatTruncationAndAppending() throws {
        let aead = try TinkStreamingAEAD(keyset: .generateAES256GCMHKDF1MB())
        let ciphertext = try aead.encrypt(F.pattern(F.firstPlaintext1MB + 1000), associatedData: [])
        #expect(ciphertext.count == (1 << 20) + 1016)
        expect(Array(ciphertext[..<(1 << 20)]), Self.truncated(after: 0), aead: aead, aad: [])
        expect(ciphertext + [7], Self.failed(1), aead: aead, aad: [])
        expect(ciphertext, .authenticationFailed, aead: aead, aad: [1])
    }
}
