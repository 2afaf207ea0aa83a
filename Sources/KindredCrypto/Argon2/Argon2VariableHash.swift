/// Argon2's variable-length hash H' (RFC 9106 §3.3), built on BLAKE2b-512.
///
/// For T ≤ 64 bytes it is BLAKE2b-T(LE32(T) ‖ A). Longer outputs chain BLAKE2b-64 calls
/// V1 = H(LE32(T) ‖ A), Vi = H(Vi-1), keeping the first 32 bytes of each, and end with a
/// BLAKE2b of the remaining length. See docs/wire-formats.md, "Argon2id" → "H'".
enum Argon2VariableHash {
    /// Computes H'^T over the concatenation of `parts`.
    /// - Parameters:
    ///   - parts: the input A, given in pieces so callers need not concatenate.
    ///   - length: the output length T, at least 1 and at most 2^32 − 1.
    /// - Returns: `length` bytes.
    static func hash(_ parts: [[UInt8]], length: Int) -> [UInt8] {
        precondition(length >= 1 && UInt64(length) <= UInt64(UInt32.max), "H' output length out of range")
        if length <= 64 {
            var state = BLAKE2b(checkedOutputLength: length)
            state.update(le32: UInt32(length))
            for part in parts { state.update(part) }
            return state.finalize()
        }
        var state = BLAKE2b(checkedOutputLength: 64)
        state.update(le32: UInt32(length))
        for part in parts { state.update(part) }
        var v = state.finalize()
        var out = [UInt8]()
        out.reserveCapacity(length)
        // r = ceil(T/32) − 2 full 32-byte halves, then a final V_{r+1} of T − 32r bytes.
        let r = (length + 31) / 32 - 2
        out.append(contentsOf: v[0..<32])
        for _ in 1..<r {
            v = BLAKE2b.digest(v, length: 64)
            out.append(contentsOf: v[0..<32])
        }
        out.append(contentsOf: BLAKE2b.digest(v, length: length - 32 * r))
        return out
    }
}
