/// Random bytes from the operating system's CSPRNG (`SystemRandomNumberGenerator`: getrandom(2)
/// on Linux, arc4random on Apple platforms), drawn eight bytes per call rather than one.
public enum SecureRandom {
    /// Returns `count` random bytes.
    /// - Parameter count: how many bytes.
    /// - Returns: bytes from the system CSPRNG.
    public static func bytes(_ count: Int) -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var i = 0
            while i < count {
                var word = rng.next()
                let n = min(8, count - i)
                for k in 0..<n {
                    buffer[i + k] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                }
                i += n
            }
            initialized = count
        }
    }
}
