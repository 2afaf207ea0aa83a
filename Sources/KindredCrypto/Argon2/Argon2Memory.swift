#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The m' blocks of one Argon2id computation and the passes over them (RFC 9106 §3.2 steps 3–6, §3.4).
///
/// One buffer of m' = 4p·⌊m / 4p⌋ blocks is allocated (plus 4 KiB of scratch) and zeroed then
/// freed by `release()`. Lanes are filled one after another within each slice, which yields the
/// same memory as parallel filling because a segment never references the current slice of
/// another lane. See docs/wire-formats.md, "Argon2id" → "Filling memory".
struct Argon2Memory {
    /// Argon2id's type code y.
    static let typeID: UInt64 = 2
    /// Number of slices per pass (sync points).
    static let slices = 4

    let lanes: Int
    let laneLength: Int
    let segmentLength: Int
    let passes: Int
    private let blockCount: Int
    private let memory: UnsafeMutablePointer<UInt64>
    /// Four blocks of scratch: the Q working block, the zero block, the address input Z and the address block.
    private let scratch: UnsafeMutablePointer<UInt64>

    /// Allocates the memory for `memoryKiB` KiB and `lanes` lanes (both already validated).
    /// - Throws: `KindredCryptoError.invalidParameters` if the system cannot provide the memory.
    init(memoryKiB: UInt32, lanes: UInt32, passes: UInt32) throws(KindredCryptoError) {
        let p = Int(lanes)
        let blocks = 4 * p * (Int(memoryKiB) / (4 * p))
        let words = Argon2Compression.blockWords
        guard let raw = Self.allocate(bytes: blocks * words * 8) else {
            throw .invalidParameters("Argon2id could not allocate \(blocks) KiB of memory")
        }
        guard let scratchRaw = calloc(4 * words, 8) else {
            free(raw)
            throw .invalidParameters("Argon2id could not allocate its scratch blocks")
        }
        self.lanes = p
        self.blockCount = blocks
        self.laneLength = blocks / p
        self.segmentLength = blocks / p / Self.slices
        self.passes = Int(passes)
        self.memory = raw.bindMemory(to: UInt64.self, capacity: blocks * words)
        self.scratch = scratchRaw.bindMemory(to: UInt64.self, capacity: 4 * words)
    }

    /// Allocates the block memory. On Linux a buffer of 2 MiB or more is 2 MiB-aligned and marked for
    /// transparent huge pages: far fewer page faults and TLB misses on the random reference reads.
    private static func allocate(bytes: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
        let hugePage = 2 << 20
        if bytes >= hugePage {
            var aligned: UnsafeMutableRawPointer?
            if posix_memalign(&aligned, hugePage, bytes) == 0, let aligned {
                // Advice only: without THP support the memory is used with normal pages.
                _ = madvise(aligned, bytes, MADV_HUGEPAGE)
                return aligned
            }
        }
        #endif
        return malloc(bytes)
    }

    /// Zeroes every block and the scratch, then frees them. Call exactly once.
    func release() {
        Self.wipe(memory, bytes: blockCount * Argon2Compression.blockWords * 8)
        Self.wipe(scratch, bytes: 4 * Argon2Compression.blockWords * 8)
        free(memory)
        free(scratch)
    }

    /// Zeroes memory with a call the compiler may not drop as a dead store before `free`.
    private static func wipe(_ pointer: UnsafeMutablePointer<UInt64>, bytes: Int) {
        #if canImport(Darwin)
        _ = memset_s(pointer, bytes, 0, bytes)
        #else
        explicit_bzero(pointer, bytes)
        #endif
    }

    /// Sets block `index` of `lane` from 1024 bytes of H' output (little-endian words).
    func setBlock(lane: Int, index: Int, bytes: [UInt8]) {
        precondition(bytes.count == 1024)
        let block = memory + (lane * laneLength + index) * Argon2Compression.blockWords
        bytes.withUnsafeBytes { raw in
            for w in 0..<Argon2Compression.blockWords {
                block[w] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self))
            }
        }
    }

    /// XORs the last block of every lane (C of RFC 9106 §3.2 step 7), as 1024 bytes.
    func finalBlock() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1024)
        for w in 0..<Argon2Compression.blockWords {
            var x: UInt64 = 0
            for lane in 0..<lanes { x ^= memory[(lane * laneLength + laneLength - 1) * Argon2Compression.blockWords + w] }
            for b in 0..<8 { out[w * 8 + b] = UInt8(truncatingIfNeeded: x >> UInt64(8 * b)) }
        }
        return out
    }

    /// Runs all t passes: for each pass and slice, fills that slice's segment in every lane.
    func fill() {
        for pass in 0..<passes {
            for slice in 0..<Self.slices {
                for lane in 0..<lanes {
                    fillSegment(pass: pass, slice: slice, lane: lane)
                }
            }
        }
    }

    /// Fills one segment (RFC 9106 §3.4): picks each block's reference with Argon2i addressing
    /// in the first half of pass 0 and Argon2d addressing elsewhere, then compresses.
    private func fillSegment(pass: Int, slice: Int, lane: Int) {
        let words = Argon2Compression.blockWords
        let q = scratch
        let zero = scratch + words
        let input = scratch + 2 &* words
        let address = scratch + 3 &* words
        let dataIndependent = pass == 0 && slice < Self.slices / 2
        if dataIndependent {
            for w in 0..<words { input[w] = 0 }
            input[0] = UInt64(pass)
            input[1] = UInt64(lane)
            input[2] = UInt64(slice)
            input[3] = UInt64(blockCount)
            input[4] = UInt64(passes)
            input[5] = Self.typeID
        }
        let firstBlocks = pass == 0 && slice == 0
        let start = firstBlocks ? 2 : 0
        let laneStart = lane &* laneLength
        // Where the reference window of a later pass begins (the slice after this one).
        let windowStart = pass == 0 || slice == Self.slices - 1 ? 0 : (slice &+ 1) &* segmentLength
        var index = start
        while index < segmentLength {
            let offset = slice &* segmentLength &+ index
            let current = laneStart &+ offset
            let previous = offset == 0 ? laneStart &+ laneLength &- 1 : current &- 1
            let pseudoRandom: UInt64
            if dataIndependent {
                if index % words == 0 || index == start {
                    input[6] &+= 1
                    Argon2Compression.compress(prev: zero, ref: input, next: address, xorIntoNext: false, scratch: q)
                    Argon2Compression.compress(prev: zero, ref: address, next: address, xorIntoNext: false, scratch: q)
                }
                pseudoRandom = address[index % words]
            } else {
                pseudoRandom = memory[previous &* words]
            }
            let refLane = firstBlocks ? lane : Int((pseudoRandom >> 32) % UInt64(lanes))
            let sameLane = refLane == lane
            // The number of blocks this block may reference (|W| of RFC 9106 §3.4.2).
            let areaSize: Int
            if pass == 0 {
                areaSize = sameLane ? offset &- 1 : slice &* segmentLength &- (index == 0 ? 1 : 0)
            } else {
                areaSize = sameLane
                    ? laneLength &- segmentLength &+ index &- 1
                    : laneLength &- segmentLength &- (index == 0 ? 1 : 0)
            }
            let j1 = pseudoRandom & 0xFFFF_FFFF
            let x = (j1 &* j1) >> 32
            let y = (UInt64(areaSize) &* x) >> 32
            let relative = areaSize &- 1 &- Int(y)
            let refIndex = (windowStart &+ relative) % laneLength
            Argon2Compression.compress(
                prev: memory + previous &* words,
                ref: memory + (refLane &* laneLength &+ refIndex) &* words,
                next: memory + current &* words,
                xorIntoNext: pass > 0,
                scratch: q
            )
            index &+= 1
        }
    }
}
