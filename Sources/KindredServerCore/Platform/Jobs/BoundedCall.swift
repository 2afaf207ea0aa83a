import NIOConcurrencyHelpers

/// A call on the scheduler's dedicated PostgreSQL connection that took longer than its bound.
struct BoundedCallTimedOut: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no answer from the database within \(limit)" }
}

/// Runs `body`, giving up after `limit`: its task is cancelled and left to end on its own.
///
/// Unlike a task group, this does not wait for a body that ignores cancellation — a query
/// on a connection whose session PostgreSQL terminated (`DROP DATABASE … WITH (FORCE)`, a
/// failover) may never answer, and graceful shutdown must not wait on it.
func boundedCall<T: Sendable>(
    within limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let resumed = NIOLockedValueBox(false)
    let first = { @Sendable in resumed.withLockedValue { done in defer { done = true }; return !done } }
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let work = Task {
            do {
                let value = try await body()
                if first() { continuation.resume(returning: value) }
            } catch {
                if first() { continuation.resume(throwing: error) }
            }
        }
        Task {
            try? await Task.sleep(for: limit)
            if first() {
                work.cancel()
                continuation.resume(throwing: BoundedCallTimedOut(limit: limit))
            }
        }
    }
}
