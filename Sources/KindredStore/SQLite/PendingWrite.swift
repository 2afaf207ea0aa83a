import SQLKit

/// A transaction waiting in a group commit, whatever its result type.
protocol GroupedWrite: AnyObject, Sendable {
    /// Runs the body on the group's session and keeps its outcome.
    /// - Returns: whether the body returned (rather than threw).
    func run(on session: any SQLDatabase) async -> Bool

    /// Answers the caller once the group is over: the body's result when the group was
    /// committed (`groupError` nil), else the body's own error, else the group's error.
    func finish(groupError: (any Error)?)
}

/// One caller's transaction: its body, its outcome, and the caller waiting for both.
///
/// `@unchecked Sendable`: `outcome` is written by `run` and read by `finish`, which the group
/// commit's single writer calls one after the other, and never at the same time.
final class PendingWrite<T: Sendable>: GroupedWrite, @unchecked Sendable {
    private let body: @Sendable (any SQLDatabase) async throws -> T
    private let continuation: CheckedContinuation<T, any Error>
    private var outcome: Result<T, any Error>?

    init(body: @escaping @Sendable (any SQLDatabase) async throws -> T, continuation: CheckedContinuation<T, any Error>) {
        self.body = body
        self.continuation = continuation
    }

    func run(on session: any SQLDatabase) async -> Bool {
        do {
            outcome = .success(try await body(session))
            return true
        } catch {
            outcome = .failure(error)
            return false
        }
    }

    func finish(groupError: (any Error)?) {
        switch (outcome, groupError) {
        case (.failure(let error), _): continuation.resume(throwing: error)
        case (_, let groupError?): continuation.resume(throwing: groupError)
        case (.success(let value), nil): continuation.resume(returning: value)
        case (nil, nil): continuation.resume(throwing: KindredStoreError.queryFailed("the transaction was not run"))
        }
    }
}
