import Dispatch
@testable import KindredServerCore
import Logging

extension FuzzTargets {
    /// The JWKS reader: the key sets Apple and Google publish, fetched from the network.
    static let identityKeySetTarget = FuzzTarget(
        name: "identity-jwks", summary: "IdentityKeySet.parse, the JWKS document reader", body: identityKeySet
    )

    /// A key set that parses holds at least one usable key.
    static func identityKeySet(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let logger = Logger(label: "kindred.fuzz") { _ in SwiftLogNoOpLogHandler() }
        let keyIDs = waitFor { try? await IdentityKeySet.parse(input, logger: logger).keyIDs }
        guard let keyIDs = keyIDs.flatMap({ $0 }) else { return false }
        try expect(!keyIDs.isEmpty, "identity-jwks", "a key set parsed with no usable key")
        return true
    }
}

/// A value handed from a task to the thread that waits for it.
///
/// `@unchecked Sendable`: written once by the task before it signals the semaphore, read once by
/// the waiting thread after `wait()` returns; the semaphore orders the two.
private final class Handoff<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `operation` in a task and blocks the calling thread until it finishes (libFuzzer's
/// callback is synchronous; it runs on libFuzzer's own thread, never on the cooperative pool).
/// - Returns: the operation's result, nil if it did not produce one.
func waitFor<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T? {
    let handoff = Handoff<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        handoff.value = await operation()
        done.signal()
    }
    done.wait()
    return handoff.value
}
