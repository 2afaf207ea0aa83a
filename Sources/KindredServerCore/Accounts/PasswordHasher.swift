import KindredCrypto
import NIOPosix

/// Hashes and checks passwords with Argon2id, at most `maxConcurrent` at a time.
///
/// The hashes run on NIO's blocking-work thread pool, never on Swift's cooperative threads, and
/// a burst of logins waits its turn instead of allocating `m` KiB per request. At most
/// `maxWaiting` wait: past that a hash is refused at once with 429 `rate_limited`
/// (`Retry-After: 1`) instead of holding a connection in an unbounded queue.
///
/// Checks of a password (log-ins, confirmations) and new hashes (sign-ups, password changes) wait
/// in two lanes, each holding up to `maxWaiting`, and a freed permit goes to a waiting check first:
/// a sign-up flood spread over many addresses, which the per-address limit cannot stop, neither
/// fills the log-ins' queue nor makes them wait behind it (`scripts/bench-login-flood`: log-in
/// p50 18× the quiet figure during such a flood with one lane).
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
        return try await permits.run(.bulk) {
            try await NIOThreadPool.singleton.runIfActive {
                try Argon2id.phcHash(password: Array(password.utf8), parameters: parameters)
            }
        }
    }

    /// Whether `password` matches `phc` (nil: check against the decoy and answer false).
    /// - Throws: `KindredError.rateLimited` when `maxWaiting` hashes already wait.
    package func verify(_ password: String, phc: String?) async throws -> Bool {
        let stored = phc ?? decoy
        let matches = try await permits.run(.interactive) {
            try await NIOThreadPool.singleton.runIfActive {
                try Argon2id.verify(password: Array(password.utf8), phc: stored)
            }
        }
        return phc != nil && matches
    }
}

/// An async semaphore: at most `limit` bodies run at once. Waiters queue in two lanes, each in
/// arrival order and each holding at most `maxWaiting` (the next in a full lane is refused at
/// once); a freed permit goes to the oldest `interactive` waiter, else to the oldest `bulk` one.
actor ConcurrencyLimiter {
    /// Which queue a body waits in.
    enum Lane: Sendable {
        /// Served first: someone is waiting for the answer (a log-in).
        case interactive
        /// Served when no interactive body waits (sign-ups, password changes).
        case bulk
    }

    private let limit: Int
    private let maxWaiting: Int
    private var running = 0
    private var interactive: [CheckedContinuation<Void, Never>] = []
    private var bulk: [CheckedContinuation<Void, Never>] = []

    /// Creates a limiter admitting `limit` at once and queueing at most `maxWaiting` per lane.
    init(limit: Int, maxWaiting: Int = .max) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    /// How many bodies wait for a permit now (both lanes).
    var queued: Int { interactive.count + bulk.count }
    /// How many bodies hold a permit now.
    var active: Int { running }

    /// Runs `body` once a permit is free.
    /// - Throws: `KindredError.rateLimited(retryAfterSeconds: 1)` when the lane's queue is full,
    ///   or what `body` throws.
    func run<T: Sendable>(_ lane: Lane = .interactive, _ body: @Sendable () async throws -> T) async throws -> T {
        if running < limit {
            running += 1
        } else {
            switch lane {
            case .interactive:
                guard interactive.count < maxWaiting else { throw KindredError.rateLimited(retryAfterSeconds: 1) }
                await withCheckedContinuation { interactive.append($0) }
            case .bulk:
                guard bulk.count < maxWaiting else { throw KindredError.rateLimited(retryAfterSeconds: 1) }
                await withCheckedContinuation { bulk.append($0) }
            }
        }
        defer {
            // The permit passes straight to the next waiter, interactive ones first.
            if !interactive.isEmpty {
                interactive.removeFirst().resume()
            } else if !bulk.isEmpty {
                bulk.removeFirst().resume()
            } else {
                running -= 1
            }
        }
        return try await body()
    }
}
