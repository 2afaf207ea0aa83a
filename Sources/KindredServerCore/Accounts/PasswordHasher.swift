import KindredCrypto
import NIOPosix

/// Hashes and checks passwords with Argon2id, at most `maxConcurrent` at a time.
///
/// The hashes run on NIO's blocking-work thread pool, never on Swift's cooperative threads, and
/// a burst of logins waits its turn instead of allocating `m` KiB per request. At most
/// `maxWaiting` wait: past that a hash is refused at once with 429 `rate_limited`
/// (`Retry-After: 1`) instead of holding a connection in an unbounded queue.
package struct PasswordHasher: Sendable {
    package let parameters: Argon2id.Parameters
    private let permits: ConcurrencyLimiter
    /// A hash of a random password, checked when the e-mail is unknown, so that an unknown
    /// address takes as long to refuse as a wrong password.
    private let decoy: String

    /// Creates a hasher.
    /// - Throws: `KindredCryptoError.invalidParameters` for parameters outside RFC 9106.
    package init(parameters: Argon2id.Parameters, maxConcurrent: Int, maxWaiting: Int = .max) throws {
        self.parameters = parameters
        permits = ConcurrencyLimiter(limit: max(1, maxConcurrent), maxWaiting: max(0, maxWaiting))
        decoy = try Argon2id.phcHash(password: SecureRandom.bytes(16), parameters: parameters)
    }

    /// The PHC string of `password`.
    /// - Throws: `KindredError.rateLimited` when `maxWaiting` hashes already wait.
    package func hash(_ password: String) async throws -> String {
        let parameters = parameters
        return try await permits.run {
            try await NIOThreadPool.singleton.runIfActive {
                try Argon2id.phcHash(password: Array(password.utf8), parameters: parameters)
            }
        }
    }

    /// Whether `password` matches `phc` (nil: check against the decoy and answer false).
    /// - Throws: `KindredError.rateLimited` when `maxWaiting` hashes already wait.
    package func verify(_ password: String, phc: String?) async throws -> Bool {
        let stored = phc ?? decoy
        let matches = try await permits.run {
            try await NIOThreadPool.singleton.runIfActive {
                try Argon2id.verify(password: Array(password.utf8), phc: stored)
            }
        }
        return phc != nil && matches
    }
}

/// An async semaphore: at most `limit` bodies run at once; at most `maxWaiting` wait, in
/// arrival order, and the next is refused at once.
actor ConcurrencyLimiter {
    private let limit: Int
    private let maxWaiting: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Creates a limiter admitting `limit` at once and queueing at most `maxWaiting`.
    init(limit: Int, maxWaiting: Int = .max) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    /// How many bodies wait for a permit now.
    var queued: Int { waiting.count }
    /// How many bodies hold a permit now.
    var active: Int { running }

    /// Runs `body` once a permit is free.
    /// - Throws: `KindredError.rateLimited(retryAfterSeconds: 1)` when the queue is full, or
    ///   what `body` throws.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if running < limit {
            running += 1
        } else {
            guard waiting.count < maxWaiting else { throw KindredError.rateLimited(retryAfterSeconds: 1) }
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty {
                running -= 1
            } else {
                waiting.removeFirst().resume()  // the permit passes straight to the next waiter
            }
        }
        return try await body()
    }
}
