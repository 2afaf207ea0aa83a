import Foundation
import Synchronization

/// A local notifier in memory: for tests and previews. It keeps what was scheduled and cancelled
/// so a test can check both; `failing` makes every call throw, to test callers' error paths.
public final class InMemoryLocalNotifier: LocalNotifier {
    // Mutex: the schedule is shared by every task holding the notifier.
    private let state = Mutex(State())

    private struct State {
        var pending: [String: LocalNotification] = [:]
        var cancelled: [String] = []
        var failing = false
    }

    /// An empty notifier.
    public init() {}

    public func schedule(id: String, at date: Date, title: String, body: String) throws(EraserKitError) {
        try state.withLock { (state) throws(EraserKitError) in
            if state.failing { throw .vault(.notifier("the test notifier is set to fail")) }
            state.pending[id] = LocalNotification(id: id, date: date, title: title, body: body)
        }
    }

    public func cancel(id: String) throws(EraserKitError) {
        try state.withLock { (state) throws(EraserKitError) in
            if state.failing { throw .vault(.notifier("the test notifier is set to fail")) }
            if state.pending.removeValue(forKey: id) != nil { state.cancelled.append(id) }
        }
    }

    public func pending() throws(EraserKitError) -> [LocalNotification] {
        try state.withLock { (state) throws(EraserKitError) in
            if state.failing { throw .vault(.notifier("the test notifier is set to fail")) }
            return Array(state.pending.values).inScheduleOrder()
        }
    }

    /// The ids cancelled while still pending, in order.
    public var cancelled: [String] { state.withLock { $0.cancelled } }

    /// Makes every later call throw `VaultError.notifier` (or stop throwing).
    public func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// Shows (removes) the pending notifications due at `now`, as the system would.
    public func deliver(now: Date) -> [LocalNotification] {
        state.withLock { state in
            let due = state.pending.values.filter { $0.date <= now }
            for notification in due { state.pending.removeValue(forKey: notification.id) }
            return Array(due).inScheduleOrder()
        }
    }
}
