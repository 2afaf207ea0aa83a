/// Encrypts one stream incrementally, exactly as Tink's `StreamingAeadEncryptingStream` does.
///
/// `update` returns the header (on the first call) and every segment it can complete; a full
/// segment is only sealed once more plaintext arrives, so that `finish` can seal the final
/// segment (possibly full, possibly empty for an empty stream) with the last-segment flag.
/// Memory: one plaintext segment. Spec: `docs/wire-formats.md`, "Streaming AEAD (AES256_GCM_HKDF_1MB)".
public struct StreamingEncrypter: Sendable {
    private let cipher: StreamingSegmentCipher
    private let geometry: StreamingGeometry
    private var header: [UInt8]?
    private var buffer: [UInt8]
    private var segment: UInt64 = 0
    private var finished = false

    /// Creates an encrypter with a given salt and nonce prefix (tests use fixed ones for
    /// known-answer vectors; `TinkStreamingAEAD.makeEncrypter` draws them at random).
    init(key: AesGcmHkdfStreamingKey, salt: [UInt8], noncePrefix: [UInt8], associatedData: [UInt8]) {
        geometry = StreamingGeometry(key.parameters)
        cipher = StreamingSegmentCipher(key: key, salt: salt[...], noncePrefix: noncePrefix[...], associatedData: associatedData)
        header = [UInt8(geometry.headerLength)] + salt + noncePrefix
        buffer = []
        buffer.reserveCapacity(geometry.plaintextSegmentSize)
    }

    /// Plaintext bytes the current segment holds when full.
    private var capacity: Int { segment == 0 ? geometry.firstPlaintextSegmentSize : geometry.plaintextSegmentSize }

    /// Adds plaintext.
    /// - Parameter plaintext: the next bytes of the stream, of any length.
    /// - Returns: the header on the first call, then whole ciphertext segments (possibly none).
    /// - Throws: `.tooLong` once the stream needs more than 2³² segments; `.invalidParameters`
    ///   after `finish`.
    public mutating func update(_ plaintext: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        guard !finished else { throw .invalidParameters("streaming encrypter used after finish()") }
        var out = header ?? []
        header = nil
        var index = plaintext.startIndex
        // A full segment is sealed only when at least one more byte follows it.
        while plaintext.endIndex - index > capacity - buffer.count {
            let take = capacity - buffer.count
            try checkSegmentNumber()
            if buffer.isEmpty {
                cipher.seal(plaintext[index..<index + take], segment: segment, last: false, into: &out)
            } else {
                buffer.append(contentsOf: plaintext[index..<index + take])
                cipher.seal(buffer[...], segment: segment, last: false, into: &out)
                buffer.removeAll(keepingCapacity: true)
            }
            index += take
            segment += 1
        }
        buffer.append(contentsOf: plaintext[index...])
        return out
    }

    /// Ends the stream.
    /// - Returns: the header if `update` was never called, then the final segment.
    /// - Throws: `.tooLong` past 2³² segments; `.invalidParameters` if already finished.
    public mutating func finish() throws(KindredCryptoError) -> [UInt8] {
        guard !finished else { throw .invalidParameters("streaming encrypter used after finish()") }
        try checkSegmentNumber()
        finished = true
        var out = header ?? []
        header = nil
        cipher.seal(buffer[...], segment: segment, last: true, into: &out)
        buffer = []
        return out
    }

    private mutating func checkSegmentNumber() throws(KindredCryptoError) {
        guard segment <= StreamingSegmentCipher.maximumSegmentNumber else {
            finished = true
            throw .tooLong(format: "streaming AEAD segment count", limit: Int(StreamingSegmentCipher.maximumSegmentNumber) + 1)
        }
    }
}
