import Foundation
@testable import KindredCrypto

/// A seeded, reproducible random generator (SplitMix64) for property tests: a failing case
/// prints its seed, and the same seed replays it.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// Random corruptions of a valid input: bit flips, byte replacement, truncation, extension,
/// deletion, insertion and splicing, each applied one to three times.
enum Mutator {
    /// Returns a mutated copy of `input` that differs from it.
    static func mutate(_ input: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var out = input
        repeat {
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<7, using: &rng) {
                case 0 where !out.isEmpty:
                    let i = Int.random(in: 0..<out.count, using: &rng)
                    out[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                case 1 where !out.isEmpty:
                    out[Int.random(in: 0..<out.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 2 where !out.isEmpty:
                    out.removeLast(Int.random(in: 1...out.count, using: &rng))
                case 3:
                    out.append(contentsOf: rng.bytes(Int.random(in: 1...16, using: &rng)))
                case 4 where !out.isEmpty:
                    out.remove(at: Int.random(in: 0..<out.count, using: &rng))
                case 5:
                    out.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...out.count, using: &rng))
                default:
                    if out.count > 2 {
                        let a = Int.random(in: 0..<out.count, using: &rng)
                        let b = Int.random(in: a..<out.count, using: &rng)
                        out.replaceSubrange(a...b, with: rng.bytes(Int.random(in: 0...4, using: &rng)))
                    } else {
                        out.append(UInt8.random(in: 0...255, using: &rng))
                    }
                }
            }
        } while out == input
        return out
    }

    /// Returns a mutated copy of a wire string (mutating its UTF-8 bytes; invalid UTF-8 is
    /// repaired, so the result is always a String that differs from the input).
    static func mutate(_ input: String, using rng: inout SeededGenerator) -> String {
        while true {
            let s = String(decoding: mutate(Array(input.utf8), using: &rng), as: UTF8.self)
            if s != input { return s }
        }
    }
}

/// Test vectors kept as JSON files in `Vectors/`.
enum Vectors {
    /// Decodes `Vectors/NAME.json` into `T`.
    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}
