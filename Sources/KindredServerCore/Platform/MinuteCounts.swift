import Foundation
import KindredStore
import NIOConcurrencyHelpers

/// Counts of something per key and per wall-clock minute over the last `minutes` minutes, in
/// this process's memory (a ring buffer per key): what the admin console shows as "per minute"
/// for this replica (realtime events, queue items completed and failed). Nothing is written to
/// the database, so counting costs a lock and an addition.
package final class MinuteCounts: Sendable {
    private struct Ring {
        /// The minute (since 1970) each slot counts; a slot of an older minute counts zero.
        var minutes: [Int64]
        var counts: [Int]
    }

    /// How many minutes are kept, the current one included.
    package let minutes: Int
    private let clock: any WallClock
    private let rings = NIOLockedValueBox<[String: Ring]>([:])

    /// Creates empty counts over `minutes` minutes (at least 1) measured with `clock`.
    package init(clock: any WallClock, minutes: Int = 60) {
        self.clock = clock
        self.minutes = max(1, minutes)
    }

    /// Adds `count` to `key`'s current minute.
    package func add(_ count: Int = 1, to key: String) {
        guard count != 0 else { return }
        let minute = Self.minute(of: clock.now())
        let size = minutes
        rings.withLockedValue { rings in
            var ring = rings[key] ?? Ring(minutes: Array(repeating: -1, count: size), counts: Array(repeating: 0, count: size))
            let slot = Int(minute.modulo(Int64(size)))
            if ring.minutes[slot] != minute {
                ring.minutes[slot] = minute
                ring.counts[slot] = 0
            }
            ring.counts[slot] += count
            rings[key] = ring
        }
    }

    /// `key`'s counts per minute, oldest first, `minutes` values ending with the current minute.
    package func series(_ key: String) -> [Int] {
        let now = Self.minute(of: clock.now())
        let size = minutes
        guard let ring = rings.withLockedValue({ $0[key] }) else { return Array(repeating: 0, count: size) }
        return (0..<size).map { offset in
            let minute = now - Int64(size - 1 - offset)
            let slot = Int(minute.modulo(Int64(size)))
            return ring.minutes[slot] == minute ? ring.counts[slot] : 0
        }
    }

    /// Every key counted since the process started, sorted.
    package var keys: [String] { rings.withLockedValue { $0.keys.sorted() } }

    /// The minute since 1970 of `date` (floored, so times before 1970 fall in earlier minutes).
    static func minute(of date: Date) -> Int64 {
        let milliseconds = date.millisecondsSince1970
        return milliseconds >= 0 ? milliseconds / 60_000 : (milliseconds - 59_999) / 60_000
    }
}

extension Int64 {
    /// The remainder of division by `divisor` (positive), never negative.
    fileprivate func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
