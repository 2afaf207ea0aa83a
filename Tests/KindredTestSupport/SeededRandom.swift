/// SplitMix64, seeded, so a failing round of a randomized test replays; for test inputs only
/// (never for keys, nonces or anything secret).
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that gives the same sequence for the same `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True or false, evenly.
    public mutating func bool() -> Bool { below(2) == 0 }

    /// Nil one time in three, else what `make` makes.
    public mutating func maybe<T>(_ make: (inout SeededRandom) -> T) -> T? { below(3) == 0 ? nil : make(&self) }

    /// Text of 0…`maxLength` scalars drawn from all of ASCII (control characters, quotes,
    /// backslashes, `/`, DEL), two- and three-byte scalars, a combining mark, U+2028/2029, a BOM
    /// and astral scalars: what a JSON writer must escape, or must not.
    public mutating func text(maxLength: Int = 24) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<below(maxLength + 1) { scalars.append(Self.pool[below(Self.pool.count)]) }
        return String(scalars)
    }

    private static let pool: [Unicode.Scalar] = (0..<0x80).map { Unicode.Scalar(UInt8($0)) }
        + ["é", "ş", "ı", "\u{0301}", "\u{2028}", "\u{2029}", "\u{FEFF}", "€", "😀", "𝄞", "\u{10FFFF}"]
}
