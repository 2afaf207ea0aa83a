import Synchronization

/// The number of connections the server has admitted and not yet closed, shared by every
/// connection of one server (`LimitedChildChannel`).
final class ConnectionCount: Sendable {
    private let open = Atomic<Int>(0)

    /// Creates a count at zero.
    init() {}

    /// The connections open now.
    var current: Int { open.load(ordering: .relaxed) }

    /// Admits one more connection unless `limit` are open already.
    /// - Returns: whether it was admitted (then call `release()` when it closes).
    func admit(limit: Int) -> Bool {
        var seen = open.load(ordering: .relaxed)
        while seen < limit {
            let (exchanged, original) = open.compareExchange(
                expected: seen, desired: seen + 1, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed
            )
            if exchanged { return true }
            seen = original
        }
        return false
    }

    /// Forgets an admitted connection that closed.
    func release() {
        open.subtract(1, ordering: .acquiringAndReleasing)
    }
}
