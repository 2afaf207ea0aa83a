/// Decrypts one stream incrementally, accepting exactly what Tink's decrypting stream accepts.
///
/// `update` returns only plaintext whose segment has been authenticated. A full segment is
/// decrypted only once at least one more ciphertext byte has arrived (until then it cannot be
/// known whether it is the last one), so the final segment is released by `finish`. The key is
/// chosen by trying each enabled key of the keyset, in order, on the header and first segment.
/// Memory: one ciphertext segment plus one byte. Any failure is final: later calls repeat it.
/// Spec: `docs/wire-formats.md`, "Streaming AEAD (AES256_GCM_HKDF_1MB)", "Decryption".
public struct StreamingDecrypter: Sendable {
    private enum State: Sendable {
        /// No key has authenticated the header and first segment yet.
        case matching
        /// Segment 0 authenticated under this stream key; `segment` is the next number.
        case streaming(StreamingSegmentCipher, StreamingGeometry)
        case finished
        case failed(KindredCryptoError)
    }

    /// The format name in errors.
    static let format = "streaming AEAD"

    private let keys: [AesGcmHkdfStreamingKey]
    private let associatedData: [UInt8]
    /// Enough bytes to hold the longest candidate header and first segment, plus one.
    private let matchingTarget: Int
    private var state: State = .matching
    private var buffer: [UInt8] = []
    private var segment: UInt64 = 0

    /// Creates a decrypter trying `keys` in order.
    init(keys: [AesGcmHkdfStreamingKey], associatedData: [UInt8]) {
        self.keys = keys
        self.associatedData = associatedData
        matchingTarget = (keys.map(\.parameters.ciphertextSegmentSize).max() ?? 0) + 1
        buffer.reserveCapacity(matchingTarget)
    }

    /// Adds ciphertext.
    /// - Parameter ciphertext: the next bytes of the stream, of any length.
    /// - Returns: the plaintext of every segment completed and authenticated by these bytes.
    /// - Throws: `.authenticationFailed` when no key authenticates the first segment (wrong key,
    ///   wrong associated data or modified start), `.malformed` for a header length byte no key
    ///   expects, `.streamCorrupted` when a later segment fails (modified, reordered, removed,
    ///   duplicated) or bytes follow the final segment; `.invalidParameters` after `finish`.
    public mutating func update(_ ciphertext: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        try checkUsable()
        var out: [UInt8] = []
        var index = ciphertext.startIndex
        do throws(KindredCryptoError) {
            while true {
                let target = self.target
                let take = min(target - buffer.count, ciphertext.endIndex - index)
                buffer.append(contentsOf: ciphertext[index..<index + take])
                index += take
                guard buffer.count >= target else { break }
                try step(final: false, into: &out)
            }
        } catch {
            fail(error)
            throw error
        }
        return out
    }

    /// Ends the stream: authenticates and returns the final segment.
    /// - Returns: the plaintext of the remaining segments, the last one included.
    /// - Throws: `.truncated` if the stream ends inside the header or before the first segment's
    ///   tag, `.streamCorrupted` if it stops after a segment that is not the final one or the final
    ///   segment fails, and the errors of `update` for the first segment.
    public mutating func finish() throws(KindredCryptoError) -> [UInt8] {
        try checkUsable()
        var out: [UInt8] = []
        do throws(KindredCryptoError) {
            try step(final: true, into: &out)
        } catch {
            fail(error)
            throw error
        }
        return out
    }

    // MARK: - Segments

    /// The buffer size at which `update` can make progress.
    private var target: Int {
        if case .streaming(_, let geometry) = state { return geometry.ciphertextSegmentSize + 1 }
        return matchingTarget
    }

    private func checkUsable() throws(KindredCryptoError) {
        switch state {
        case .failed(let error): throw error
        case .finished: throw .invalidParameters("streaming decrypter used after finish()")
        case .matching, .streaming: return
        }
    }

    private mutating func fail(_ error: KindredCryptoError) {
        state = .failed(error)
        buffer = []
    }

    /// Decrypts every segment the buffer allows; with `final`, also the last one.
    private mutating func step(final: Bool, into out: inout [UInt8]) throws(KindredCryptoError) {
        if case .matching = state { try matchFirstSegment(final: final, into: &out) }
        guard case .streaming(let cipher, let geometry) = state else { return }
        let size = geometry.ciphertextSegmentSize
        while buffer.count > size {
            try open(cipher, buffer[..<size], last: false, into: &out)
            buffer.removeFirst(size)
        }
        if final {
            try open(cipher, buffer[...], last: true, into: &out)
            buffer = []
            state = .finished
        }
    }

    /// Opens segment `segment`, naming the likely cause when it fails.
    private mutating func open(_ cipher: StreamingSegmentCipher, _ bytes: ArraySlice<UInt8>, last: Bool,
                               into out: inout [UInt8]) throws(KindredCryptoError) {
        guard segment <= StreamingSegmentCipher.maximumSegmentNumber else {
            throw .streamCorrupted("more than 2^32 segments")
        }
        if cipher.open(bytes, segment: segment, last: last, into: &out) {
            segment += 1
            return
        }
        var scratch: [UInt8] = []
        if cipher.open(bytes, segment: segment, last: !last, into: &scratch) {
            throw Self.flagMismatch(segment: segment, atEnd: last)
        }
        throw .streamCorrupted("segment \(segment) failed authentication (modified, reordered, removed or duplicated)")
    }

    private static func flagMismatch(segment: UInt64, atEnd: Bool) -> KindredCryptoError {
        atEnd ? .streamCorrupted("truncated: the stream ends after segment \(segment), which is not the final segment")
              : .streamCorrupted("data follows the final segment \(segment)")
    }

    // MARK: - Key matching

    private enum MatchFailure: Comparable {
        case shortHeader, headerLengthByte, shortFirstSegment, authentication, truncatedAfterFirst, dataAfterFirst
    }

    /// Tries each key on the header and first segment; the first that authenticates is kept.
    private mutating func matchFirstSegment(final: Bool, into out: inout [UInt8]) throws(KindredCryptoError) {
        var worst: MatchFailure?
        for key in keys {
            let geometry = StreamingGeometry(key.parameters)
            let headerLength = geometry.headerLength
            guard buffer.count >= headerLength else { worst = max(worst ?? .shortHeader, .shortHeader); continue }
            guard buffer[0] == UInt8(headerLength) else { worst = max(worst ?? .headerLengthByte, .headerLengthByte); continue }
            let cipher = StreamingSegmentCipher(key: key, salt: buffer[1..<1 + geometry.saltSize],
                                                noncePrefix: buffer[1 + geometry.saltSize..<headerLength],
                                                associatedData: associatedData)
            let last = final && buffer.count <= geometry.ciphertextSegmentSize
            let end = last ? buffer.count : geometry.ciphertextSegmentSize
            guard end - headerLength >= StreamingGeometry.tagSize else {
                worst = max(worst ?? .shortFirstSegment, .shortFirstSegment)
                continue
            }
            if cipher.open(buffer[headerLength..<end], segment: 0, last: last, into: &out) {
                buffer.removeFirst(end)
                segment = 1
                state = last ? .finished : .streaming(cipher, geometry)
                return
            }
            var scratch: [UInt8] = []
            let flipped = cipher.open(buffer[headerLength..<end], segment: 0, last: !last, into: &scratch)
            let failure: MatchFailure = !flipped ? .authentication : last ? .truncatedAfterFirst : .dataAfterFirst
            worst = max(worst ?? failure, failure)
        }
        switch worst {
        case .truncatedAfterFirst: throw Self.flagMismatch(segment: 0, atEnd: true)
        case .dataAfterFirst: throw Self.flagMismatch(segment: 0, atEnd: false)
        case .authentication: throw .authenticationFailed
        case .headerLengthByte:
            let expected = Set(keys.map { StreamingGeometry($0.parameters).headerLength }).sorted().map(String.init)
            throw .malformed(format: Self.format,
                             reason: "header length byte \(buffer[0]) is not \(expected.joined(separator: " or "))")
        case .shortHeader, .shortFirstSegment, nil: throw .truncated(format: Self.format)
        }
    }
}
