/// BLAKE2b (RFC 7693): the hash under Argon2's H0, H' and tag; optionally keyed, 1 to 64 bytes out.
///
/// Incremental: `update` any number of times, then `finalize`. See docs/wire-formats.md, "Argon2id" → "BLAKE2b".
public struct BLAKE2b: Sendable {
    /// The largest digest and key length, in bytes (RFC 7693 §2.1).
    public static let maxOutputLength = 64

    private static let iv: [UInt64] = [
        0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B, 0x3C6E_F372_FE94_F82B, 0xA54F_F53A_5F1D_36F1,
        0x510E_527F_ADE6_82D1, 0x9B05_688C_2B3E_6C1F, 0x1F83_D9AB_FB41_BD6B, 0x5BE0_CD19_137E_2179,
    ]

    /// The message schedule σ of RFC 7693 §2.7 (rounds 10 and 11 reuse rows 0 and 1).
    private static let sigma: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ]

    private var h: [UInt64]
    private var buffer: [UInt8]
    private var counter: (low: UInt64, high: UInt64) = (0, 0)
    private let outputLength: Int

    /// Starts a hash.
    /// - Parameters:
    ///   - outputLength: the digest length nn, 1...64 bytes.
    ///   - key: the MAC key, 0...64 bytes (empty for plain hashing).
    /// - Throws: `KindredCryptoError.invalidParameters` for a length outside those ranges.
    public init(outputLength: Int = 64, key: [UInt8] = []) throws(KindredCryptoError) {
        guard (1...Self.maxOutputLength).contains(outputLength) else {
            throw .invalidParameters("BLAKE2b output length must be 1...64 bytes, got \(outputLength)")
        }
        guard key.count <= Self.maxOutputLength else {
            throw .invalidParameters("BLAKE2b key must be at most 64 bytes, got \(key.count)")
        }
        self.init(checkedOutputLength: outputLength, key: key)
    }

    /// Starts a hash whose lengths the caller has already checked (1...64 out, key ≤ 64).
    init(checkedOutputLength outputLength: Int, key: [UInt8] = []) {
        precondition((1...Self.maxOutputLength).contains(outputLength) && key.count <= Self.maxOutputLength)
        self.outputLength = outputLength
        h = Self.iv
        // Parameter block word 0: digest length, key length, fanout 1, depth 1 (RFC 7693 §2.5).
        h[0] ^= 0x0101_0000 ^ UInt64(key.count) << 8 ^ UInt64(outputLength)
        buffer = []
        buffer.reserveCapacity(128)
        if !key.isEmpty {
            buffer = key + [UInt8](repeating: 0, count: 128 - key.count)
        }
    }

    /// Hashes one message in one call.
    /// - Parameters:
    ///   - message: the bytes to hash.
    ///   - outputLength: the digest length, 1...64 bytes.
    ///   - key: the MAC key, 0...64 bytes.
    /// - Returns: the `outputLength`-byte digest.
    /// - Throws: `KindredCryptoError.invalidParameters` for a bad length.
    public static func hash(_ message: [UInt8], outputLength: Int = 64, key: [UInt8] = []) throws(KindredCryptoError) -> [UInt8] {
        var state = try BLAKE2b(outputLength: outputLength, key: key)
        state.update(message)
        return state.finalize()
    }

    /// Unkeyed BLAKE2b of an internally chosen length in 1...64 (Argon2's H' steps).
    static func digest(_ message: [UInt8], length: Int) -> [UInt8] {
        var state = BLAKE2b(checkedOutputLength: length)
        state.update(message)
        return state.finalize()
    }

    /// Absorbs more message bytes.
    /// - Parameter bytes: the next bytes of the message.
    public mutating func update(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            if buffer.count == 128 {
                // A full block is compressed only once more input follows: the last block is special.
                increment(by: 128)
                compress(buffer, last: false)
                buffer.removeAll(keepingCapacity: true)
            }
            let take = min(128 - buffer.count, bytes.count - offset)
            buffer.append(contentsOf: bytes[offset..<(offset + take)])
            offset += take
        }
    }

    /// Absorbs a 32-bit integer in little-endian order (as Argon2's LE32 fields).
    mutating func update(le32 value: UInt32) {
        update([UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
                UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)])
    }

    /// Finishes the hash.
    /// - Returns: the digest, `outputLength` bytes.
    public consuming func finalize() -> [UInt8] {
        increment(by: UInt64(buffer.count))
        let block = buffer + [UInt8](repeating: 0, count: 128 - buffer.count)
        compress(block, last: true)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for word in h {
            for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Array(out.prefix(outputLength))
    }

    private mutating func increment(by n: UInt64) {
        let (sum, overflow) = counter.low.addingReportingOverflow(n)
        counter.low = sum
        if overflow { counter.high &+= 1 }
    }

    /// The compression function F (RFC 7693 §3.2) over one 128-byte block.
    private mutating func compress(_ block: [UInt8], last: Bool) {
        var m = [UInt64](repeating: 0, count: 16)
        for i in 0..<16 {
            var word: UInt64 = 0
            for j in 0..<8 { word |= UInt64(block[i * 8 + j]) << UInt64(8 * j) }
            m[i] = word
        }
        var v = h + Self.iv
        v[12] ^= counter.low
        v[13] ^= counter.high
        if last { v[14] = ~v[14] }
        for round in 0..<12 {
            let s = Self.sigma[round % 10]
            Self.mix(&v, 0, 4, 8, 12, m[s[0]], m[s[1]])
            Self.mix(&v, 1, 5, 9, 13, m[s[2]], m[s[3]])
            Self.mix(&v, 2, 6, 10, 14, m[s[4]], m[s[5]])
            Self.mix(&v, 3, 7, 11, 15, m[s[6]], m[s[7]])
            Self.mix(&v, 0, 5, 10, 15, m[s[8]], m[s[9]])
            Self.mix(&v, 1, 6, 11, 12, m[s[10]], m[s[11]])
            Self.mix(&v, 2, 7, 8, 13, m[s[12]], m[s[13]])
            Self.mix(&v, 3, 4, 9, 14, m[s[14]], m[s[15]])
        }
        for i in 0..<8 { h[i] ^= v[i] ^ v[i + 8] }
    }

    /// The mixing function G (RFC 7693 §3.1), rotations 32, 24, 16, 63.
    @inline(__always)
    private static func mix(_ v: inout [UInt64], _ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt64, _ y: UInt64) {
        v[a] = v[a] &+ v[b] &+ x
        v[d] = rotr(v[d] ^ v[a], 32)
        v[c] = v[c] &+ v[d]
        v[b] = rotr(v[b] ^ v[c], 24)
        v[a] = v[a] &+ v[b] &+ y
        v[d] = rotr(v[d] ^ v[a], 16)
        v[c] = v[c] &+ v[d]
        v[b] = rotr(v[b] ^ v[c], 63)
    }

    @inline(__always)
    private static func rotr(_ x: UInt64, _ n: UInt64) -> UInt64 { x &>> n | x &<< (64 &- n) }
}
