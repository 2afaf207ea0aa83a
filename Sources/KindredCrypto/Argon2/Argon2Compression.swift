/// Argon2's compression function G (RFC 9106 §3.5–3.6) on 1024-byte blocks held as 128
/// little-endian `UInt64` words, written on raw pointers: no arrays, no bounds checks and no
/// allocation in the hot loop. See docs/wire-formats.md, "Argon2id" → "Compression".
///
/// There are two implementations of G that compute the same function: a scalar one (this file),
/// which stays fast in unoptimized debug builds, and a two-lane SIMD one
/// (`Argon2Compression+SIMD.swift`), about 15 % faster in release builds, where SIMD types are
/// fully optimized. `compress` picks the scalar one in DEBUG builds and the SIMD one otherwise;
/// the tests check that both agree block for block.
enum Argon2Compression {
    /// Words per 1024-byte block.
    static let blockWords = 128

    /// Computes `next = G(prev, ref)` (first pass) or `next ^= G(prev, ref)` (later passes, version 0x13).
    ///
    /// G(X, Y): R = X ⊕ Y; Q = P applied to each row of R, then to each column; G = Q ⊕ R.
    /// `next` may be the same block as `ref` (the address generator does this); it must not be `prev`.
    /// - Parameters:
    ///   - prev: the block X, 128 words.
    ///   - ref: the block Y, 128 words.
    ///   - next: the destination, 128 words.
    ///   - xorIntoNext: `true` to XOR the result into `next` instead of overwriting it.
    ///   - q: 128 words of scratch space, distinct from the three blocks.
    @inline(__always)
    static func compress(
        prev: UnsafeMutablePointer<UInt64>, ref: UnsafeMutablePointer<UInt64>, next: UnsafeMutablePointer<UInt64>,
        xorIntoNext: Bool, scratch q: UnsafeMutablePointer<UInt64>
    ) {
        #if DEBUG
        compressScalar(prev: prev, ref: ref, next: next, xorIntoNext: xorIntoNext, scratch: q)
        #else
        compressPairs(prev: prev, ref: ref, next: next, xorIntoNext: xorIntoNext, scratch: q)
        #endif
    }

    /// G on 64-bit scalars; same contract as `compress`.
    @inline(__always)
    static func compressScalar(
        prev: UnsafeMutablePointer<UInt64>, ref: UnsafeMutablePointer<UInt64>, next: UnsafeMutablePointer<UInt64>,
        xorIntoNext: Bool, scratch q: UnsafeMutablePointer<UInt64>
    ) {
        var i = 0
        if xorIntoNext {
            while i < 128 {
                let r = prev[i] ^ ref[i]
                q[i] = r
                next[i] ^= r
                i &+= 1
            }
        } else {
            while i < 128 {
                let r = prev[i] ^ ref[i]
                q[i] = r
                next[i] = r
                i &+= 1
            }
        }
        // Rows: row k is the 16 consecutive words 16k...16k+15.
        i = 0
        while i < 8 {
            permuteScalar(q + 16 &* i, stride: 2)
            i &+= 1
        }
        // Columns: column k is words 2k, 2k+1, 2k+16, 2k+17, …, 2k+112, 2k+113.
        i = 0
        while i < 8 {
            permuteScalar(q + 2 &* i, stride: 16)
            i &+= 1
        }
        i = 0
        while i < 128 {
            next[i] ^= q[i]
            i &+= 1
        }
    }

    /// The permutation P (RFC 9106 §3.6) on 16 words: word j of the input is
    /// `v[(j / 2) * stride + j % 2]` (stride 2 for a row, 16 for a column).
    @inline(__always)
    static func permuteScalar(_ v: UnsafeMutablePointer<UInt64>, stride s: Int) {
        var v0 = v[0], v1 = v[1], v2 = v[s], v3 = v[s &+ 1]
        var v4 = v[2 &* s], v5 = v[2 &* s &+ 1], v6 = v[3 &* s], v7 = v[3 &* s &+ 1]
        var v8 = v[4 &* s], v9 = v[4 &* s &+ 1], v10 = v[5 &* s], v11 = v[5 &* s &+ 1]
        var v12 = v[6 &* s], v13 = v[6 &* s &+ 1], v14 = v[7 &* s], v15 = v[7 &* s &+ 1]
        mix(&v0, &v4, &v8, &v12)
        mix(&v1, &v5, &v9, &v13)
        mix(&v2, &v6, &v10, &v14)
        mix(&v3, &v7, &v11, &v15)
        mix(&v0, &v5, &v10, &v15)
        mix(&v1, &v6, &v11, &v12)
        mix(&v2, &v7, &v8, &v13)
        mix(&v3, &v4, &v9, &v14)
        v[0] = v0; v[1] = v1; v[s] = v2; v[s &+ 1] = v3
        v[2 &* s] = v4; v[2 &* s &+ 1] = v5; v[3 &* s] = v6; v[3 &* s &+ 1] = v7
        v[4 &* s] = v8; v[4 &* s &+ 1] = v9; v[5 &* s] = v10; v[5 &* s &+ 1] = v11
        v[6 &* s] = v12; v[6 &* s &+ 1] = v13; v[7 &* s] = v14; v[7 &* s &+ 1] = v15
    }

    /// GB (RFC 9106 §3.6): BLAKE2b's G with each addition a + b replaced by fBlaMka,
    /// a + b + 2 · lo32(a) · lo32(b), and no message words.
    @inline(__always)
    static func mix(_ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64) {
        a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
        d = d ^ a
        d = d &>> 32 | d &<< 32
        c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
        b = b ^ c
        b = b &>> 24 | b &<< 40
        a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
        d = d ^ a
        d = d &>> 16 | d &<< 48
        c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
        b = b ^ c
        b = b &>> 63 | b &<< 1
    }
}
