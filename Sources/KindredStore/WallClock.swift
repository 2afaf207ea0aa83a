import Foundation
import NIOConcurrencyHelpers

/// The wall-clock time source of everything that stores or compares timestamps.
///
/// Not the standard library's `Clock`: that one measures monotonic instants for sleeping,
/// while Kindred persists calendar time in the database and tests need to move it by hand.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The real time of the machine.
public struct SystemClock: WallClock {
    /// Creates the system clock.
    public init() {}

    /// The current time, from `Date()`.
    public func now() -> Date { Date() }
}

/// A clock that stands still until a test moves it.
public final class TestClock: WallClock {
    // Mutable state behind a lock, so one clock can be shared by concurrent tasks.
    private let current: NIOLockedValueBox<Date>

    /// Creates a clock reading `start` (2026-01-01T00:00:00Z by default).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = NIOLockedValueBox(start)
    }

    /// The time the clock was set to.
    public func now() -> Date { current.withLockedValue { $0 } }

    /// Moves the clock forward (or back, with a negative duration).
    public func advance(by duration: Duration) {
        current.withLockedValue { $0 = $0.addingTimeInterval(duration.timeInterval) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLockedValue { $0 = date }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded down.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

extension Date {
    /// Milliseconds since 1970-01-01T00:00:00Z, the unit Kindred stores timestamps in.
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
