/// The bulk loops of `Base64`: six input bytes ↔ eight characters per step, with one 8-byte
/// load and lookups in pre-combined tables, instead of a byte at a time. They handle the long
/// middle of a buffer; the byte-wise code in `Base64` finishes the tail and keeps every rule.
extension Base64 {
    /// 4096 entries per alphabet: the two characters of a 12-bit value, the first in the low byte.
    private static let standardPairs = pairs(standardTable)
    private static let urlPairs = pairs(urlTable)
    /// 1024 entries per alphabet, four tables of 256: a character's 6-bit value shifted into its
    /// place in a 24-bit group (position 0 by 18 bits … position 3 by 0), or `wideInvalid`.
    private static let standardQuads = quads(standardReverse)
    private static let urlQuads = quads(urlReverse)
    /// Marks a character outside the alphabet; it survives OR-ing into the top byte.
    static let wideInvalid: UInt32 = 0xFF00_0000

    private static func pairs(_ table: [UInt8]) -> [UInt16] {
        (0..<4096).map { UInt16(table[$0 >> 6]) | UInt16(table[$0 & 63]) << 8 }
    }

    private static func quads(_ reverse: [UInt8]) -> [UInt32] {
        var out = [UInt32](repeating: wideInvalid, count: 1024)
        for c in 0..<256 where reverse[c] != invalid {
            for position in 0..<4 { out[position * 256 + c] = UInt32(reverse[c]) << (18 - 6 * position) }
        }
        return out
    }

    /// Encodes whole 6-byte groups while eight input bytes can be loaded.
    /// - Parameters:
    ///   - input: the bytes to encode.
    ///   - alphabet: the alphabet.
    ///   - out: room for at least `encodedLength(input.count)` characters.
    /// - Returns: how many input bytes were consumed and characters written (a multiple of 6 and 8).
    static func encodeWide(_ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet,
                           to out: UnsafeMutableBufferPointer<UInt8>) -> (read: Int, written: Int) {
        guard let source = input.baseAddress, let target = out.baseAddress else { return (0, 0) }
        let src = UnsafeRawPointer(source), dst = UnsafeMutableRawPointer(target)
        return (alphabet == .standard ? standardPairs : urlPairs).withUnsafeBufferPointer { pairs in
            var i = 0, o = 0
            // Reads bytes i..<i+8 (the loop bound) and writes characters o..<o+8, which stay
            // within the encoded length because six more input bytes remain.
            while i + 8 <= input.count {
                let w = UInt64(bigEndian: src.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let a = UInt64(pairs[Int(w >> 52 & 0xFFF)]), b = UInt64(pairs[Int(w >> 40 & 0xFFF)])
                let c = UInt64(pairs[Int(w >> 28 & 0xFFF)]), d = UInt64(pairs[Int(w >> 16 & 0xFFF)])
                dst.storeBytes(of: (a | b << 16 | c << 32 | d << 48).littleEndian, toByteOffset: o, as: UInt64.self)
                i += 6; o += 8
            }
            return (i, o)
        }
    }

    /// Decodes whole 8-character groups while eight characters remain.
    /// - Parameters:
    ///   - input: the characters to decode (without padding).
    ///   - alphabet: the alphabet.
    ///   - out: room for at least `input.count / 4 * 3` bytes.
    ///   - invalid: OR-ed with `wideInvalid` when a character is outside the alphabet.
    /// - Returns: how many characters were consumed and bytes written.
    static func decodeWide(_ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, to out: UnsafeMutableBufferPointer<UInt8>,
                           invalid: inout UInt32) -> (read: Int, written: Int) {
        guard let source = input.baseAddress else { return (0, 0) }
        let src = UnsafeRawPointer(source)
        return (alphabet == .standard ? standardQuads : urlQuads).withUnsafeBufferPointer { t in
            var i = 0, o = 0
            var bad: UInt32 = 0
            while i + 8 <= input.count {
                let w = UInt64(littleEndian: src.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let x = t[Int(w & 0xFF)] | t[256 + Int(w >> 8 & 0xFF)] | t[512 + Int(w >> 16 & 0xFF)] | t[768 + Int(w >> 24 & 0xFF)]
                let y = t[Int(w >> 32 & 0xFF)] | t[256 + Int(w >> 40 & 0xFF)] | t[512 + Int(w >> 48 & 0xFF)] | t[768 + Int(w >> 56)]
                bad |= x | y
                out[o] = UInt8(truncatingIfNeeded: x >> 16); out[o + 1] = UInt8(truncatingIfNeeded: x >> 8)
                out[o + 2] = UInt8(truncatingIfNeeded: x)
                out[o + 3] = UInt8(truncatingIfNeeded: y >> 16); out[o + 4] = UInt8(truncatingIfNeeded: y >> 8)
                out[o + 5] = UInt8(truncatingIfNeeded: y)
                i += 8; o += 6
            }
            invalid |= bad
            return (i, o)
        }
    }
}
