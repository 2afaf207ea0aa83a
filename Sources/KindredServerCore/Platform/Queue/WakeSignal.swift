import Foundation
import NIOConcurrencyHelpers

/// Wakes waiting workers early: `signal()` ends every current `wait(upTo:)`, or, with no one
/// waiting, the next one (a signal is never lost between two waits).
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Wakes the waiters, or remembers the signal for the next wait.
    func signal() {
        let waiters = state.withLockedValue { state in
            defer { state.waiters = [:] }
            if state.waiters.isEmpty { state.pending = true }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns after `timeout`, at a signal, or when the task is cancelled, whichever is first.
    func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForSignal() }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForSignal() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { state in
                    // Checked under the lock: a cancellation before this point is seen here,
                    // one after it finds the waiter registered.
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
