import KindredCrypto
import NIOPosix

/// Hashes and checks passwords with Argon2id, at most `maxConcurrent` at a time.
///
/// The hashes run on NIO's blocking-work thread pool, never on Swift's cooperative threads, and
/// a burst of logins waits its turn instead of allocating `m` KiB per request.
package struct PasswordHasher: Sendable {
    package let parameters: Argon2id.Parameters
    private let permits: ConcurrencyLimiter
    /// A hash of a random password, checked when the e-mail is unknown, so that an unknown
    /// address takes as long to refuse as a wrong password.
    private let decoy: String

    /// Creates a hasher.
    /// - Throws: `KindredCryptoError.invalidParameters` for parameters outside RFC 9106.
    package init(parameters: Argon2id.Parameters, maxConcurrent: Int) throws {
        self.parameters = parameters
        permits = ConcurrencyLimiter(limit: max(1, maxConcurrent))
        decoy = try Argon2id.phcHash(password: SecureRandom.bytes(16), parameters: parameters)
    }

    /// The PHC string of `password`.
    package func hash(_ password: String) async throws -> String {
        let parameters = parameters
        return try await permits.run {
            try await NIOThreadPool.singleton.runIfActive {
                try Argon2id.phcHash(password: Array(password.utf8), parameters: parameters)
            }
        }
    }

    /// Whether `password` matches `phc` (nil: check against the decoy and answer false).
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

/// An async semaphore: at most `limit` bodies run at once; the rest wait in arrival order.
actor ConcurrencyLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Creates a limiter admitting `limit` at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `body` once a permit is free.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if running < limit {
            running += 1
        } else {
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
