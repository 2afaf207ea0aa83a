/// The two-lane SIMD implementation of Argon2's G, used in optimized builds (see `Argon2Compression`).
/// See docs/wire-formats.md, "Argon2id" → "Compression".
extension Argon2Compression {
    /// G on pairs of words in SIMD registers (SSE2 on x86-64, NEON on arm64); same contract as `compress`.
    @inline(__always)
    static func compressPairs(
        prev: UnsafeMutablePointer<UInt64>, ref: UnsafeMutablePointer<UInt64>, next: UnsafeMutablePointer<UInt64>,
        xorIntoNext: Bool, scratch q: UnsafeMutablePointer<UInt64>
    ) {
        // Rows of R = X ⊕ Y, two at a time (row k is words 16k...16k+15); `next` receives R (⊕ next).
        var row = 0
        if xorIntoNext {
            while row < 8 {
                permuteRows(row, prev: prev, ref: ref, next: next, q: q, xorIntoNext: true)
                row &+= 2
            }
        } else {
            while row < 8 {
                permuteRows(row, prev: prev, ref: ref, next: next, q: q, xorIntoNext: false)
                row &+= 2
            }
        }
        // Columns, two at a time (column k is words 2k, 2k+1, 2k+16, 2k+17, …, 2k+113); Q is XORed into `next`.
        var column = 0
        while column < 8 {
            permuteColumns(column, q: q, next: next)
            column &+= 2
        }
    }

    /// Two 64-bit words as one SSE2 / NEON register.
    typealias Pair = SIMD2<UInt64>

    /// The words `block[word]`, `block[word + 1]`.
    @inline(__always)
    static func load(_ block: UnsafeMutablePointer<UInt64>, _ word: Int) -> Pair {
        UnsafeMutableRawPointer(block + word).loadUnaligned(as: Pair.self)
    }

    /// Stores `pair` at `block[word]`, `block[word + 1]`.
    @inline(__always)
    static func store(_ pair: Pair, _ block: UnsafeMutablePointer<UInt64>, _ word: Int) {
        UnsafeMutableRawPointer(block + word).storeBytes(of: pair, as: Pair.self)
    }

    // P runs on two inputs at once, one per SIMD lane: register j holds word j of the first input
    // in lane 0 and word j of the second in lane 1, so the column and diagonal steps need no
    // shuffles; loading and storing transposes word pairs (UNPCKLQDQ / UNPCKHQDQ).

    /// P on rows `row` and `row + 1` of R = prev ⊕ ref, written to `q`; also sets `next` to R (or XORs R into it).
    @inline(__always)
    static func permuteRows(
        _ row: Int, prev: UnsafeMutablePointer<UInt64>, ref: UnsafeMutablePointer<UInt64>,
        next: UnsafeMutablePointer<UInt64>, q: UnsafeMutablePointer<UInt64>, xorIntoNext: Bool
    ) {
        let first = 16 &* row, second = first &+ 16
        @inline(__always) func read(_ j: Int) -> (Pair, Pair) {
            let wa = first &+ 2 &* j, wb = second &+ 2 &* j
            let a = load(prev, wa) ^ load(ref, wa)
            let b = load(prev, wb) ^ load(ref, wb)
            store(xorIntoNext ? load(next, wa) ^ a : a, next, wa)
            store(xorIntoNext ? load(next, wb) ^ b : b, next, wb)
            return (Pair(a.x, b.x), Pair(a.y, b.y))
        }
        @inline(__always) func write(_ j: Int, _ even: Pair, _ odd: Pair) {
            store(Pair(even.x, odd.x), q, first &+ 2 &* j)
            store(Pair(even.y, odd.y), q, second &+ 2 &* j)
        }
        var (v0, v1) = read(0), (v2, v3) = read(1), (v4, v5) = read(2), (v6, v7) = read(3)
        var (v8, v9) = read(4), (v10, v11) = read(5), (v12, v13) = read(6), (v14, v15) = read(7)
        permute(&v0, &v1, &v2, &v3, &v4, &v5, &v6, &v7, &v8, &v9, &v10, &v11, &v12, &v13, &v14, &v15)
        write(0, v0, v1); write(1, v2, v3); write(2, v4, v5); write(3, v6, v7)
        write(4, v8, v9); write(5, v10, v11); write(6, v12, v13); write(7, v14, v15)
    }

    /// P on columns `column` and `column + 1` of `q`, XORed into `next`.
    @inline(__always)
    static func permuteColumns(_ column: Int, q: UnsafeMutablePointer<UInt64>, next: UnsafeMutablePointer<UInt64>) {
        let first = 2 &* column, second = first &+ 2
        @inline(__always) func read(_ k: Int) -> (Pair, Pair) {
            let a = load(q, first &+ 16 &* k), b = load(q, second &+ 16 &* k)
            return (Pair(a.x, b.x), Pair(a.y, b.y))
        }
        @inline(__always) func write(_ k: Int, _ even: Pair, _ odd: Pair) {
            let wa = first &+ 16 &* k, wb = second &+ 16 &* k
            store(load(next, wa) ^ Pair(even.x, odd.x), next, wa)
            store(load(next, wb) ^ Pair(even.y, odd.y), next, wb)
        }
        var (v0, v1) = read(0), (v2, v3) = read(1), (v4, v5) = read(2), (v6, v7) = read(3)
        var (v8, v9) = read(4), (v10, v11) = read(5), (v12, v13) = read(6), (v14, v15) = read(7)
        permute(&v0, &v1, &v2, &v3, &v4, &v5, &v6, &v7, &v8, &v9, &v10, &v11, &v12, &v13, &v14, &v15)
        write(0, v0, v1); write(1, v2, v3); write(2, v4, v5); write(3, v6, v7)
        write(4, v8, v9); write(5, v10, v11); write(6, v12, v13); write(7, v14, v15)
    }

    /// The permutation P (RFC 9106 §3.6) on words v0...v15 (in both lanes): GB on the four
    /// columns, then on the four diagonals of the 4×4 matrix, as in a BLAKE2b round.
    @inline(__always)
    static func permute(
        _ v0: inout Pair, _ v1: inout Pair, _ v2: inout Pair, _ v3: inout Pair,
        _ v4: inout Pair, _ v5: inout Pair, _ v6: inout Pair, _ v7: inout Pair,
        _ v8: inout Pair, _ v9: inout Pair, _ v10: inout Pair, _ v11: inout Pair,
        _ v12: inout Pair, _ v13: inout Pair, _ v14: inout Pair, _ v15: inout Pair
    ) {
        mix(&v0, &v4, &v8, &v12)
        mix(&v1, &v5, &v9, &v13)
        mix(&v2, &v6, &v10, &v14)
        mix(&v3, &v7, &v11, &v15)
        mix(&v0, &v5, &v10, &v15)
        mix(&v1, &v6, &v11, &v12)
        mix(&v2, &v7, &v8, &v13)
        mix(&v3, &v4, &v9, &v14)
    }

    /// GB (RFC 9106 §3.6) in both lanes: BLAKE2b's G with each a + b replaced by fBlaMka,
    /// a + b + 2 · lo32(a) · lo32(b), and no message words.
    @inline(__always)
    static func mix(_ a: inout Pair, _ b: inout Pair, _ c: inout Pair, _ d: inout Pair) {
        a = fBlaMka(a, b)
        d = rotateRight32(d ^ a)
        c = fBlaMka(c, d)
        b = rotateRight24(b ^ c)
        a = fBlaMka(a, b)
        d = rotateRight16(d ^ a)
        c = fBlaMka(c, d)
        b = rotateRight63(b ^ c)
    }

    /// x + y + 2 · lo32(x) · lo32(y) in each lane (compiles to one PMULUDQ on x86-64).
    @inline(__always)
    static func fBlaMka(_ x: Pair, _ y: Pair) -> Pair {
        let low = Pair(repeating: 0xFFFF_FFFF)
        let product = (x & low) &* (y & low)
        return x &+ y &+ product &+ product
    }

    // The rotations are not spelled `x >> n | x << (64 − n)`: LLVM turns that idiom on SIMD2<UInt64>
    // into one scalar rotate per lane. A left shift written as a multiplication by 2^(64 − n) stays a
    // vector shift (PSLLQ), and a 32-bit rotation is a lane shuffle (PSHUFD).

    /// Rotates each 64-bit lane right by 32: swaps its 32-bit halves.
    @inline(__always)
    static func rotateRight32(_ x: Pair) -> Pair {
        let w = unsafeBitCast(x, to: SIMD4<UInt32>.self)
        return unsafeBitCast(SIMD4<UInt32>(w[1], w[0], w[3], w[2]), to: Pair.self)
    }

    /// Rotates each 64-bit lane right by 24.
    @inline(__always)
    static func rotateRight24(_ x: Pair) -> Pair {
        x &>> Pair(repeating: 24) | x &* Pair(repeating: 1 << 40)
    }

    /// Rotates each 64-bit lane right by 16.
    @inline(__always)
    static func rotateRight16(_ x: Pair) -> Pair {
        x &>> Pair(repeating: 16) | x &* Pair(repeating: 1 << 48)
    }

    /// Rotates each 64-bit lane right by 63, that is left by 1: (x >> 63) ^ (x + x).
    @inline(__always)
    static func rotateRight63(_ x: Pair) -> Pair {
        x &>> Pair(repeating: 63) ^ (x &+ x)
    }
}
