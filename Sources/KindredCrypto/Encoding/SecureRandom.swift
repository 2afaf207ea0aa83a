#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random bytes from the operating system's CSPRNG: `arc4random_buf` on Apple platforms,
/// `getentropy(3)` (one `getrandom(2)` system call per 256 bytes) on Linux, and
/// `SystemRandomNumberGenerator` elsewhere or should `getentropy` ever fail.
///
/// A request is served in as few system calls as possible, so callers that need several
/// secrets at once (a key, a nonce and IVs) should draw them together and split the result.
public enum SecureRandom {
    /// Returns `count` random bytes.
    /// - Parameter count: how many bytes.
    /// - Returns: bytes from the system CSPRNG.
    public static func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Fills `buffer` with random bytes.
    /// - Parameter buffer: the memory to overwrite.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
        arc4random_buf(base, buffer.count)
        #elseif canImport(Glibc) || canImport(Musl)
        // getentropy serves at most 256 bytes per call and either fills them all or fails.
        var offset = 0
        while offset < buffer.count {
            let n = min(256, buffer.count - offset)
            guard getentropy(base + offset, n) == 0 else {
                fillFromSystemGenerator(UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]))
                return
            }
            offset += n
        }
        #else
        fillFromSystemGenerator(buffer)
        #endif
    }

    /// The portable path: `SystemRandomNumberGenerator`, eight bytes per call (it traps rather
    /// than return weak randomness).
    private static func fillFromSystemGenerator(_ buffer: UnsafeMutableRawBufferPointer) {
        var rng = SystemRandomNumberGenerator()
        var i = 0
        while i < buffer.count {
            var word = rng.next()
            let n = min(8, buffer.count - i)
            for k in 0..<n {
                buffer[i + k] = UInt8(truncatingIfNeeded: word)
                word >>= 8
            }
            i += n
        }
    }
}
