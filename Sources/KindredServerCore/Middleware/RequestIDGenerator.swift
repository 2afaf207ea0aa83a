import Synchronization

/// Makes the ids of requests that bring none: UUID-shaped text (version 4 layout), unique within
/// the process by a counter and across restarts and replicas by a random per-process prefix.
///
/// A request id correlates log lines and is no secret, so it need not be unpredictable; a fresh
/// random UUID per request costs a system call for its randomness.
final class RequestIDGenerator: Sendable {
    /// The first 8 bytes of every id: random, with the version nibble set to 4.
    private let high: UInt64
    /// Where the counter in the last 8 bytes starts (random, so restarts do not repeat a sequence).
    private let start: UInt64
    private let counter = Atomic<UInt64>(0)

    /// A generator with a random prefix.
    convenience init() {
        var random = SystemRandomNumberGenerator()
        self.init(high: random.next(), start: random.next())
    }

    /// A generator with a given prefix and counter start (for tests).
    init(high: UInt64, start: UInt64) {
        self.high = (high & ~0x0000_0000_0000_F000) | 0x0000_0000_0000_4000
        self.start = start
    }

    /// The next id, e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427` (lower-case).
    func next() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        // The variant bits (10) take the top of the low half; the counter fills the other 62.
        let low = ((start &+ count) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { text in
            let digits: StaticString = "0123456789abcdef"
            var index = 0
            func put(_ value: UInt64, nibbles: Int) {
                for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                    text[index] = digits.utf8Start[Int((value >> UInt64(shift)) & 0xF)]
                    index += 1
                }
            }
            func dash() {
                text[index] = UInt8(ascii: "-")
                index += 1
            }
            put(high >> 32, nibbles: 8)
            dash()
            put(high >> 16, nibbles: 4)
            dash()
            put(high, nibbles: 4)
            dash()
            put(low >> 48, nibbles: 4)
            dash()
            put(low, nibbles: 12)
            return index
        }
    }
}
