import Foundation
import Synchronization

/// A clock the test moves by hand, for `KindredSession(now:)`.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// A clock reading `start`.
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The time now.
    func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
